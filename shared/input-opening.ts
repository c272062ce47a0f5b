/** Shorter shared openings ("Question: ") are part of what a reader scans for; they stay. */
const LEAST_OPENING = 24;

const WORD = /[\p{L}\p{N}\p{M}]/u;

/**
 * The opening every one of these inputs starts with, cut back to the start of a word, or ''
 * when it is short or there is only one input. lm-eval and chat-templated prompts begin with the
 * same template tokens or few-shot block, several hundred characters of it, so a one-line cell
 * of each showed the same words on every row; the grid leaves this opening out of its cells.
 */
export function sharedOpening(inputs: readonly string[]): string {
  const texts = inputs.filter((t) => t.length > 0);
  if (texts.length < 2) return '';
  const first = texts[0]!;
  let n = first.length;
  for (const text of texts) {
    n = Math.min(n, text.length);
    let i = 0;
    while (i < n && text.charCodeAt(i) === first.charCodeAt(i)) i++;
    n = i;
    if (n < LEAST_OPENING) return '';
  }
  // A cell must still show something of every input, and never half a word or a character.
  if (texts.some((t) => t.length === n)) n--;
  const inWord = (at: number) =>
    WORD.test(first.charAt(at - 1)) && texts.some((t) => WORD.test(t.charAt(at)));
  while (n > 0 && inWord(n)) n--;
  const high = first.charCodeAt(n - 1);
  if (high >= 0xd800 && high <= 0xdbff) n--;
  return n < LEAST_OPENING ? '' : first.slice(0, n);
}

/**
 * What an input's cell shows: the text after the opening (when it has it, and a search hit
 * is not only inside the opening), and whether the opening was left out.
 */
export function afterOpening(
  text: string,
  opening: string,
  search: RegExp | null,
): { text: string; cut: boolean } {
  if (!opening || !text.startsWith(opening)) return { text, cut: false };
  const rest = text.slice(opening.length);
  if (search && rest.search(search) < 0 && text.search(search) >= 0) return { text, cut: false };
  return { text: rest, cut: true };
}

/** An input after the opening (as `afterOpening`), cut to `chars` characters, on one line. */
export function inputLine(input: string, opening: string, chars: number): string {
  const shown = afterOpening(input, opening, null);
  const text = shown.text.length > chars ? `${shown.text.slice(0, chars)}…` : shown.text;
  return shown.cut ? `… ${text}` : text;
}
