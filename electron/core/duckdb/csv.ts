import { criterionRules, pairExamples } from '../../../shared/compare';
import { compareStrings } from '../../../shared/compare/canonical';
import {
  exampleCsvHeader,
  exampleCsvRecord,
  exampleCsvRow,
  type CsvCell,
} from '../../../shared/compare/csv';
import { idOrderOf, numberedIds } from '../compare/id-order';
import { pairIdsOf } from '../compare/pair-ids';
import { toCsv } from '../export/csv';
import type { ParquetComparison } from './engine';
import type { ParquetSource } from './source';

interface PairText {
  example_id: string;
  input: string;
  reference_output: string;
  candidate_output: string;
}

/**
 * The built-in engine's examples CSV (export/csv.ts): one row per paired example of every
 * compared pair, criteria as columns (their union over the pairs, sorted). Classes and flags
 * come from the runs the report was computed from; their texts were read as hashes, so each
 * pair's texts are read here, in example id order, the pairing's own. Rows are then listed in
 * the explorer's id order (compare/id-order.ts: numbered ids by number), as the built-in one's.
 */
export async function examplesCsvFromParquet(
  source: ParquetSource,
  { report, runs }: ParquetComparison,
): Promise<string> {
  const pairs = report.comparisons.map((comparison) => {
    const reference = runs.get(comparison.reference.condition)!;
    const candidate = runs.get(comparison.candidate.condition)!;
    return { comparison, reference, candidate, rules: criterionRules(reference, candidate) };
  });
  const columns = [...new Set(pairs.flatMap((p) => p.rules.map((r) => r.field)))].sort(
    compareStrings,
  );
  const rows: CsvCell[][] = [];
  for (const { comparison, reference, candidate, rules } of pairs) {
    const pairing = pairExamples(reference, candidate);
    const texts = await pairTexts(source, reference.runId, candidate.runId);
    const csvPair = {
      experimentId: report.experiment.id,
      reference: { condition: comparison.reference.condition, runId: reference.runId },
      candidate: { condition: comparison.candidate.condition, runId: candidate.runId },
    };
    const pairRows: CsvCell[][] = [];
    pairing.matched.forEach((exampleId, k) => {
      const a = pairing.matchedReference[k]!;
      const b = pairing.matchedCandidate[k]!;
      const text = texts[k];
      if (text?.example_id !== exampleId)
        throw new Error(`The export's examples of ${reference.runId} changed while read.`);
      pairRows.push(
        exampleCsvRow(
          csvPair,
          columns,
          exampleCsvRecord(
            exampleId,
            {
              input: text.input,
              referenceOutput: text.reference_output,
              candidateOutput: text.candidate_output,
            },
            a,
            b,
            rules,
          ),
        ),
      );
    });
    const numbered = numberedIds(pairIdsOf(pairing.all));
    const { order } = idOrderOf(pairIdsOf(pairing.matched), numbered);
    rows.push(...(order ? Array.from(order, (k) => pairRows[k]!) : pairRows));
  }
  return toCsv(exampleCsvHeader(columns), rows);
}

/** The paired examples' texts: the reference's input and both outputs, by example id. */
async function pairTexts(
  source: ParquetSource,
  referenceId: string,
  candidateId: string,
): Promise<PairText[]> {
  const reader = await source.connection.runAndReadAll(
    `SELECT r.example_id, r.input, r.output AS reference_output, c.output AS candidate_output
     FROM examples r JOIN examples c ON c.example_id = r.example_id
     WHERE r.run_id = $1 AND c.run_id = $2
     ORDER BY r.example_id`,
    [referenceId, candidateId],
  );
  return reader.getRowObjectsJS() as unknown as PairText[];
}
