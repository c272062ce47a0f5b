import type { RequestOutput, Unavailable } from '../../shared/contract';
import { formatCount, formatCounted, formatNumber, formatSigned } from '../../shared/format';
import { afterOpening, sharedOpening } from '../../shared/input-opening';
import { tableLines } from './text-table';

type Page = RequestOutput<'examples:page'>;
type Row = Page['rows'][number];

const INPUT_CHARS = 60;

/** Pass/fail counts as 1/0, as the explorer's differences do. */
function numeric(value: unknown): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return formatNumber(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `ref → cand (Δ) class`, the difference only when both sides are numbers or pass/fail. */
function criterionCell(row: Row, criterion: string): string {
  const value = row.values[criterion] ?? { reference: null, candidate: null };
  const ref = numeric(value.reference);
  const cand = numeric(value.candidate);
  const delta = ref !== null && cand !== null ? ` (${formatSigned(cand - ref)})` : '';
  const cls = row.classes[criterion] ?? 'not_comparable';
  return `${valueText(value.reference)} → ${valueText(value.candidate)}${delta} ${cls}`;
}

/** In place of an input that could not be read from its source (changed or gone since indexing). */
const UNREAD: Record<Unavailable, string> = {
  'source-changed': '(source changed since indexing: re-index it)',
  'source-missing': '(source file gone, texts not archived)',
};

/** A text on one line: its line breaks and runs of spaces read as one space, cut to `chars`. */
function oneLine(text: string, chars: number): string {
  const flat = [...text.replace(/\s+/g, ' ').trim()];
  return flat.length > chars ? `${flat.slice(0, chars - 1).join('')}…` : flat.join('');
}

/** The start of the input on one line, after the opening every input shown shares. */
function inputStart(row: Row, opening: string): string {
  if (row.input_unavailable) return UNREAD[row.input_unavailable];
  const shown = afterOpening(row.input, opening, null);
  return shown.cut ? `… ${oneLine(shown.text, INPUT_CHARS - 2)}` : oneLine(row.input, INPUT_CHARS);
}

/** What the input column left out, said once under the table (a terminal has no hover). */
function openingLine(opening: string): string {
  return `input: after the ${formatCounted(opening.length, 'character')} every input shown starts with: "${oneLine(opening, INPUT_CHARS)}"`;
}

/** A cursor quoted for a POSIX shell, so the line can be pasted as it is. */
function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * One page as aligned columns: the id whole, each criterion's values with their difference and
 * class, the two change flags and the input's start; then how many match and the next cursor.
 */
export function examplesTable(
  page: Page & { total: number },
  criteria: string[],
  pairLabel: string,
): string {
  const opening = sharedOpening(page.rows.map((r) => (r.input_unavailable ? '' : r.input)));
  const lines =
    page.rows.length === 0
      ? ['No examples match.']
      : tableLines([
          ['example', ...criteria, 'output', 'behaviour', 'input'],
          ...page.rows.map((row) => [
            row.example_id,
            ...criteria.map((criterion) => criterionCell(row, criterion)),
            row.output_changed ? 'changed' : 'same',
            row.behavior_changed ? 'changed' : 'same',
            inputStart(row, opening),
          ]),
        ]);
  if (opening) lines.push('', openingLine(opening));
  lines.push(
    '',
    `${formatCount(page.rows.length)} shown of ${formatCount(page.total)} · ${pairLabel}`,
  );
  if (page.next !== null) lines.push(`next page: --after ${shellQuoted(page.next)}`);
  return lines.join('\n');
}
