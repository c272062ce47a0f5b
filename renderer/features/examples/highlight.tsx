import type { ReactNode } from 'react';

/**
 * Where a search hits a text, the way the core matches it: each word the user typed at the
 * start of a word of the text (any case), and the whole search anywhere inside an id.
 */
export function searchPattern(search: string | undefined, asId = false): RegExp | null {
  const text = search?.trim() ?? '';
  if (!text) return null;
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (asId) return new RegExp(escape(text), 'gi');
  const words = text.match(/[\p{L}\p{N}\p{Mn}]+/gu);
  if (!words) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}\\p{Mn}])(?:${words.map(escape).join('|')})`, 'giu');
}

/** The text with each hit in a <mark>; text stays text (React escapes it). */
export function highlight(text: string, pattern: RegExp | null): ReactNode {
  if (!pattern) return text;
  const out: ReactNode[] = [];
  let last = 0;
  for (const hit of text.matchAll(pattern)) {
    if (hit[0].length === 0) continue;
    if (hit.index > last) out.push(text.slice(last, hit.index));
    out.push(<mark key={hit.index}>{hit[0]}</mark>);
    last = hit.index + hit[0].length;
  }
  if (out.length === 0) return text;
  out.push(text.slice(last));
  return out;
}

/** Characters kept before the first hit when a long text is cut to show it. */
const LEAD = 30;

/**
 * A one-line excerpt of a long text that shows its first hit: the cell cuts at its width, so
 * a hit past the first few dozen characters would be out of sight.
 */
export function excerpt(text: string, pattern: RegExp | null, chars: number): string {
  const at = pattern ? text.search(pattern) : -1;
  if (at <= LEAD * 2) return text.length > chars ? text.slice(0, chars) : text;
  return `…${text.slice(at - LEAD, at - LEAD + chars)}`;
}
