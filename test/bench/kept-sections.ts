/**
 * Sections of docs/benchmarks.md that other scripts write between markers: the coverage table
 * (`npm run bench:coverage`), the two engines side by side (`test/bench/engines.ts`) and the
 * notes on search while the index fills, and hand-written notes: a comparison with the figures
 * before a change of design or of the index workers' CPU, where a small library's first pass
 * goes, what the renderer's long tasks at open were, and how long the service's writes wait
 * while the fill runs. The speed benchmark rewrites the file and carries each of them over.
 */

import fs from 'node:fs';

export const KEPT_SECTIONS = [
  'before-after',
  'renderer-notes',
  'index-cpu',
  'small-index-notes',
  'search-notes',
  'fill-waits-notes',
  'engines',
  'coverage',
] as const;
export type KeptSection = (typeof KEPT_SECTIONS)[number];

export function sectionStart(name: KeptSection): string {
  return `<!-- ${name}:start -->`;
}

export function sectionEnd(name: KeptSection): string {
  return `<!-- ${name}:end -->`;
}

/** Puts the section into the document in place of the previous one, or at its end. */
export function withSection(document: string, name: KeptSection, section: string): string {
  const start = document.indexOf(sectionStart(name));
  const end = document.indexOf(sectionEnd(name));
  if (start >= 0 && end > start) {
    const after = document.slice(end + sectionEnd(name).length).replace(/^\n+/, '');
    return `${document.slice(0, start)}${section}${after}`;
  }
  return `${document.trimEnd()}\n\n${section}`;
}

/** `markdown` with every kept section that `file` already holds. */
export function keepingSections(file: string, markdown: string): string {
  if (!fs.existsSync(file)) return markdown;
  const current = fs.readFileSync(file, 'utf8');
  let document = markdown;
  for (const name of KEPT_SECTIONS) {
    const start = current.indexOf(sectionStart(name));
    const end = current.indexOf(sectionEnd(name));
    if (start < 0 || end < start) continue;
    const section = `${current.slice(start, end + sectionEnd(name).length)}\n`;
    document = withSection(document, name, section);
  }
  return document;
}
