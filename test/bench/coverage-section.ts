/**
 * The coverage table's place in docs/benchmarks.md: between these markers. The coverage
 * benchmark writes it; the speed benchmark, which rewrites the file, carries it over.
 */

import fs from 'node:fs';

export const COVERAGE_START = '<!-- coverage:start -->';
export const COVERAGE_END = '<!-- coverage:end -->';

/** Puts the section into the document in place of the previous one, or at its end. */
export function withCoverageSection(document: string, section: string): string {
  const start = document.indexOf(COVERAGE_START);
  const end = document.indexOf(COVERAGE_END);
  if (start >= 0 && end > start) {
    const after = document.slice(end + COVERAGE_END.length).replace(/^\n+/, '');
    return `${document.slice(0, start)}${section}${after}`;
  }
  return `${document.trimEnd()}\n\n${section}`;
}

/** `markdown` with the coverage section that `file` already holds, if any. */
export function keepingCoverage(file: string, markdown: string): string {
  if (!fs.existsSync(file)) return markdown;
  const current = fs.readFileSync(file, 'utf8');
  const start = current.indexOf(COVERAGE_START);
  const end = current.indexOf(COVERAGE_END);
  if (start < 0 || end < start) return markdown;
  return withCoverageSection(markdown, `${current.slice(start, end + COVERAGE_END.length)}\n`);
}
