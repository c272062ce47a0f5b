import fs from 'node:fs';
import { format, resolveConfig } from 'prettier';

export interface CaseResult {
  name: string;
  /** Repetitions (kills, corrupted files, requests…). */
  runs: number;
  failures: number;
  notes: string;
  /** The case could not run here (and why). */
  skipped?: string;
}

const START = '<!-- chaos:start -->';
const END = '<!-- chaos:end -->';

export function table(results: CaseResult[]): string {
  const rows = results.map((r) => [
    r.name,
    r.skipped ? '—' : String(r.runs),
    r.skipped ? 'skipped' : String(r.failures),
    (r.skipped ?? r.notes).replace(/\|/g, '\\|').replace(/\n/g, ' '),
  ]);
  const header = ['Case', 'Runs', 'Failures', 'Notes'];
  return [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/** Replaces the chaos section of docs/reliability.md (between its markers) with this run's. */
export async function writeReport(
  file: string,
  results: CaseResult[],
  meta: { date: string; commit: string; seconds: number; seed: number },
): Promise<void> {
  const failures = results.reduce((n, r) => n + r.failures, 0);
  const section = [
    START,
    `Last run: ${meta.date}, commit \`${meta.commit}\`, seed ${meta.seed}, ${Math.round(meta.seconds)} s, **${failures} failures**.`,
    '',
    table(results),
    END,
  ].join('\n');
  const text = fs.readFileSync(file, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`${file} has no ${START} … ${END} section`);
  const updated = text.slice(0, start) + section + text.slice(end + END.length);
  // Formatted as the repository's `prettier --check` expects.
  const options = (await resolveConfig(file)) ?? {};
  fs.writeFileSync(file, await format(updated, { ...options, filepath: file }));
}
