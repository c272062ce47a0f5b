/**
 * The prose of a finding (question, claim, protocol, conclusion, limitations, notes, title) as
 * Markdown that renders as written but can run nothing. Drafts are pre-filled from run files
 * (a sidecar's question and claim, model ids, condition names in proposed limitations), so the
 * prose is as hostile as any run data.
 *
 * Code (fenced blocks, and code spans within one line) is left alone: Markdown shows it as
 * text. Everywhere else `<` becomes `&lt;` (so no raw HTML or autolink survives), an `&` that
 * would start a character reference becomes `&amp;` (so no entity can spell a tag or a scheme),
 * and a link or link definition whose address has a scheme other than http, https or mailto is
 * broken by escaping its `(` or `:`. The matching is deliberately narrower than a Markdown
 * parser's where the two could disagree: a code span is only recognised inside one line and
 * one table cell, so text we leave alone is code to every renderer.
 */

const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);

function unsafeDestination(destination: string): boolean {
  // Browsers drop spaces and control characters around and inside a scheme, and Markdown
  // drops backslash escapes: judge what the browser would see.
  const plain = destination
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    .replace(/[\u0000-\u0020\\]/g, '')
    .replace(/^&lt;/, '')
    .toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(plain);
  return scheme !== null && !SAFE_SCHEMES.has(scheme[1]!);
}

function inertText(text: string): string {
  return text
    .replace(/&(?=#?[a-z0-9]+;)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/\]\((\s*)([^\s)]*)/g, (match, space: string, destination: string) =>
      unsafeDestination(destination) ? `]\\(${space}${destination}` : match,
    )
    .replace(/\]:(\s*)(\S*)/g, (match, space: string, destination: string) =>
      unsafeDestination(destination) ? `]\\:${space}${destination}` : match,
    );
}

/** One line outside a fenced block: code spans kept, the rest made inert. */
function inertLine(line: string): string {
  let out = '';
  let text = '';
  let i = 0;
  while (i < line.length) {
    const char = line[i]!;
    if (char === '\\' && i + 1 < line.length) {
      text += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (char !== '`') {
      text += char;
      i += 1;
      continue;
    }
    const run = /^`+/.exec(line.slice(i))![0];
    const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
    close.lastIndex = i + run.length;
    const end = close.exec(line);
    const span = end ? line.slice(i, end.index + run.length) : null;
    if (span === null || span.includes('|')) {
      text += run;
      i += run.length;
      continue;
    }
    out += inertText(text) + span;
    text = '';
    i += span.length;
  }
  return out + inertText(text);
}

export function safeProse(text: string): string {
  const out: string[] = [];
  let fence: { marker: string; close: RegExp } | null = null;
  // A lone CR ends a line in Markdown as LF does: split where a renderer would.
  for (const line of text.split(/\r\n?|\n/)) {
    if (fence) {
      out.push(line);
      if (fence.close.test(line)) fence = null;
      continue;
    }
    const open = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(line);
    // A backtick fence whose info string holds a backtick is not a fence.
    if (open && !(open[2]![0] === '`' && open[3]!.includes('`'))) {
      const [, indent, marker, info] = open;
      out.push(`${indent}${marker}${inertText(info!)}`);
      const char = marker![0] === '`' ? '`' : '~';
      fence = { marker: marker!, close: new RegExp(`^ {0,3}${char}{${marker!.length},}[ \\t]*$`) };
      continue;
    }
    out.push(inertLine(line));
  }
  // An unclosed fence would swallow the rest of the export.
  if (fence) out.push(fence.marker);
  return out.join('\n');
}
