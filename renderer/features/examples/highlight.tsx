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
 * Code points that may show narrower than any letter, or not at all: marks, format and other
 * invisible characters, controls, and spaces other than the plain one (a hair space).
 */
const NARROW = /[\p{M}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Zs}]/u;

/** Space, tab or newline: a run of them shows as one space in a one-line cell. */
const collapses = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a;

/**
 * Where a cut of the text from `start` ends so that it holds `chars` characters that show at
 * least a letter's width (collapsed white space, marks and invisible characters do not count),
 * with the marks that follow the last of them.
 */
export function cutEnd(text: string, start: number, chars: number): number {
  let shown = 0;
  let space = false;
  let i = start;
  while (i < text.length) {
    const code = text.codePointAt(i)!;
    const size = code > 0xffff ? 2 : 1;
    const collapsed = collapses(code);
    let counts: boolean;
    if (collapsed) counts = !space;
    else if (code < 0x7f) counts = code >= 0x20;
    else counts = !NARROW.test(text.slice(i, i + size));
    if (counts && shown === chars) break;
    if (counts) shown++;
    space = collapsed;
    i += size;
  }
  return i;
}

/**
 * A one-line excerpt of a long text that shows its first hit: the cell cuts at its width, so
 * a hit past the first few dozen characters would be out of sight.
 */
export function excerpt(text: string, pattern: RegExp | null, chars: number): string {
  const at = pattern ? text.search(pattern) : -1;
  if (at <= LEAD * 2) return text.slice(0, cutEnd(text, 0, chars));
  return `…${text.slice(at - LEAD, cutEnd(text, at - LEAD, chars))}`;
}
