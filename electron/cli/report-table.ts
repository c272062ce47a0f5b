import { methodsNote } from '../../shared/compare/methods';
import type { Comparison, Report } from '../../shared/compare/types';
import { verdictWords } from '../../shared/compare/verdict-words';
import { formatInterval, formatSigned as num } from '../../shared/format';
import { tableLines } from './text-table';

function plain(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const BASIS_NOTES: Record<string, string> = {
  name: 'reference guessed from its name — change with --reference',
  earliest: 'reference guessed: earliest run — change with --reference',
};

function header(report: Report): string[] {
  const basis = BASIS_NOTES[report.experiment.reference_basis ?? ''];
  const { id, name, project, reference } = report.experiment;
  const title = id.startsWith('pair:') ? `Two runs: ${name}` : `Experiment ${id} (${project})`;
  const lines = [`${title} — reference: ${reference}${basis ? ` (${basis})` : ''}`];
  if (report.comparisons.length === 0) {
    lines.push(
      '  Nothing to compare: the experiment has one condition. To compare two of its runs, use pairwise compare --baseline RUN --candidate RUN (run ids from pairwise runs).',
    );
  }
  return lines;
}

function checksAndCoverage(c: Comparison): string[] {
  const lines: string[] = [];
  if (c.evaluated_differs) lines.push('  ! The runs differ in what was evaluated.');
  const s = c.summary;
  lines.push(
    `  checks: ${s.matches} matches, ${s.differs} differs, ${s.unknown} unknown, ${s['not applicable']} not applicable`,
  );
  const notMatching = c.checks.filter((k) => k.status !== 'matches');
  if (notMatching.length) {
    lines.push(
      ...tableLines([
        ['  path', 'status', 'reference', 'candidate'],
        ...notMatching.map((k) => [
          `  ${k.path}`,
          k.status,
          plain(k.reference),
          plain(k.candidate),
        ]),
      ]),
    );
  }
  const cov = c.coverage;
  lines.push(
    `  coverage: ${cov.paired} paired, ${cov.only_reference.length} only in reference, ${cov.only_candidate.length} only in candidate, ${cov.input_mismatch.length} input mismatches`,
  );
  if (cov.errored_reference && cov.errored_candidate) {
    lines.push(
      `  errored: ${cov.errored_reference.length} on the reference, ${cov.errored_candidate.length} on the candidate — left out`,
    );
  }
  lines.push(
    `  examples: ${c.examples.output_changed.length} output changed, ${c.examples.behavior_changed.length} behaviour changed`,
  );
  return lines;
}

function metricsAndCriteria(c: Comparison): string[] {
  const lines: string[] = [];
  if (c.metrics.length) {
    lines.push(
      ...tableLines([
        ['  metric', 'reported Δ', 'paired Δ', '95% CI', 'n', 'expect', 'verdict'],
        ...c.metrics.map((m) => [
          `  ${m.name}`,
          num(m.reported.difference),
          num(m.paired?.difference),
          formatInterval(m.paired?.ci95) +
            (m.paired?.small_n ? ' (small n — treat as a rough guide)' : ''),
          m.paired ? String(m.paired.n) : '—',
          m.expect ?? '—',
          verdictWords(m) ?? '—',
        ]),
      ]),
    );
  }
  if (c.criteria.length) {
    lines.push(
      ...tableLines([
        ['  criterion', 'improved', 'regressed', 'unchanged', 'changed', 'not comparable'],
        ...c.criteria.map((k) => [
          `  ${k.field}`,
          String(k.improved),
          String(k.regressed),
          String(k.unchanged),
          String(k.changed),
          String(k.not_comparable),
        ]),
      ]),
    );
  }
  return lines;
}

/** The terminal summary: what a researcher scans first, nothing that needs a wide screen twice. */
export function reportTable(report: Report): string {
  const lines = header(report);
  for (const c of report.comparisons) {
    lines.push(
      '',
      `▸ ${c.candidate.condition} vs ${c.reference.condition}   [${c.candidate.run_id} vs ${c.reference.run_id}]`,
      ...checksAndCoverage(c),
      ...metricsAndCriteria(c),
    );
  }
  const methods = methodsNote(report.comparisons);
  if (methods) lines.push('', methods);
  return lines.join('\n');
}
