import type { FindingView, Pin } from '../../../shared/findings';
import { safeProse } from './markdown-prose';
import {
  CHECK_COLUMNS,
  checkBlocks,
  type CheckBlock,
  exportedAt,
  interval,
  keptLimitations,
  METRIC_COLUMNS,
  metricRows,
  num,
  observedText,
  signed,
  statisticsNote,
  type MetricRow,
} from './view';

/**
 * A finding as one Markdown file. The prose fields are Markdown and keep their formatting, but
 * drafts are pre-filled from run files, so they pass through `safeProse` (no raw HTML, no
 * script links); names in tables are escaped and example text is fenced, so nothing from a run
 * file can turn into markup.
 */

/** Backslash-escapes what would break a table cell or start a link, tag or code span. */
function mdCell(text: string): string {
  // A lone CR ends a line in Markdown, as LF does.
  return text.replace(/[\\|<>[\]`]/g, (c) => `\\${c}`).replace(/\r\n?|\n/g, ' ');
}

/** A fence longer than any backtick run inside, so no text can close it early. */
function fenced(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text}\n${fence}`;
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

function section(title: string, text: string, empty: string): string {
  return `## ${title}\n\n${safeProse(text.trim()) || `_${empty}_`}`;
}

function metricsTable(rows: MetricRow[]): string {
  if (rows.length === 0) return '_The report has no metrics._';
  return table(
    METRIC_COLUMNS,
    rows.map((r) => [
      mdCell(r.comparison),
      mdCell(r.metric),
      mdCell(r.reference),
      mdCell(r.candidate),
      r.n === null ? '—' : String(r.n),
      r.reportedOnly ? `${signed(r.difference)} (reported)` : signed(r.difference),
      interval(r.ci95),
      r.resamples === null ? '—' : String(r.resamples),
      r.expect ?? '—',
      mdCell(r.verdict ?? '—'),
    ]),
  );
}

function checksSection(blocks: CheckBlock[]): string {
  if (blocks.length === 0) return '## Checks\n\n_Nothing was compared._';
  const parts = blocks.map((b) => {
    const head = `### ${mdCell(b.comparison)}\n\nChecks: ${b.summary}.${b.evaluatedDiffers ? ' **The runs differ in what was evaluated.**' : ''}`;
    if (b.rows.length === 0) return `${head} Every check matches.`;
    return `${head}\n\n${table(
      CHECK_COLUMNS,
      b.rows.map((r) => [mdCell(r.path), r.status, mdCell(r.reference), mdCell(r.candidate)]),
    )}`;
  });
  return `## Checks\n\n${parts.join('\n\n')}`;
}

function pinned(pin: Pin, index: number): string {
  const side = (name: string, s: Pin['reference']) =>
    s
      ? `**${mdCell(s.condition)} output** (run \`${s.runId.replace(/`/g, '')}\`)\n\n${fenced(s.output)}`
      : `**${name}:** not logged by this run.`;
  const input = pin.reference?.input ?? pin.candidate?.input ?? '';
  const inputs =
    pin.reference && pin.candidate && pin.reference.input !== pin.candidate.input
      ? `**Input (reference)**\n\n${fenced(pin.reference.input)}\n\n**Input (candidate)**\n\n${fenced(pin.candidate.input)}`
      : `**Input**\n\n${fenced(input)}`;
  return [
    `### ${index + 1}. Example ${mdCell(pin.exampleId)}`,
    safeProse(pin.note.trim()),
    inputs,
    side('Reference', pin.reference),
    side('Candidate', pin.candidate),
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function findingMarkdown(view: FindingView): string {
  const { body, finding } = view;
  const { report, bootstrap } = body.snapshot;
  const rows = metricRows(report);
  const limitations = keptLimitations(body.limitations);
  const parts = [
    `# ${safeProse(finding.title.replace(/\r?\n/g, ' '))}`,
    `_Experiment ${mdCell(finding.experimentId)} · revision ${view.revision} saved ${view.savedAt} · evidence from the comparison of ${body.snapshot.reportCreatedAt} (report ${body.snapshot.reportKey.slice(0, 12)}, checker version ${report.checker_version})._`,
    section('Question', body.question, 'No question given.'),
    section('Claim', body.claim, 'No claim given.'),
    section('Protocol', body.protocol, 'No protocol given.'),
    `## Results\n\n${metricsTable(rows)}\n\n${statisticsNote(bootstrap)} "(reported)": the runs' own values, no interval.`,
  ];
  parts.push(checksSection(checkBlocks(report)));
  const reproduction = report.reproduction;
  if (reproduction && reproduction.rows.length > 0) {
    const source = [
      reproduction.arxiv && `arXiv ${reproduction.arxiv}`,
      reproduction.version,
      reproduction.where,
    ]
      .filter(Boolean)
      .map((s) => mdCell(String(s)))
      .join(', ');
    parts.push(
      `## Paper vs observed\n\n${source ? `Paper: ${source}.\n\n` : ''}${table(
        ['Metric', 'Condition', 'Paper', 'Observed (95% interval)', 'Observed − paper'],
        reproduction.rows.map((r) => [
          mdCell(r.metric),
          mdCell(r.condition),
          num(r.paper),
          observedText(r),
          signed(r.difference),
        ]),
      )}`,
    );
  }
  parts.push(
    limitations.length
      ? `## Limitations\n\n${limitations.map((l) => `- ${safeProse(l.text.replace(/\r?\n/g, ' '))}`).join('\n')}`
      : '## Limitations\n\n_None recorded._',
    section('Conclusion', body.conclusion, 'No conclusion written yet.'),
  );
  if (body.pinned.length)
    parts.push(`## Pinned examples\n\n${body.pinned.map(pinned).join('\n\n')}`);
  parts.push(`---\n_Exported by Pairwise on ${exportedAt()}._`);
  return parts.join('\n\n') + '\n';
}
