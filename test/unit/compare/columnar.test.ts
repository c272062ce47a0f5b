import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRunColumns } from '../../../electron/core/columns/decode';
import { readRunTable } from '../../../electron/core/columns/table';
import { buildColumnReport, type ColumnRun } from '../../../electron/core/compare/columnar/report';
import { twinOf } from '../../../electron/core/compare/columnar/pairing';
import { columnPairRows } from '../../../electron/core/compare/columnar/rows';
import type { LoadedRun } from '../../../electron/core/compare/load';
import { objectPairRows } from '../../../electron/core/compare/object-rows';
import { encodePair } from '../../../electron/core/compare/pair-arrays';
import { buildExperimentReport } from '../../../shared/compare';
import {
  columnarLibraryArb,
  type ColumnarLibrary,
  type ColumnarRun,
} from '../../fixtures/columnar';

/**
 * The same library both ways: one object per example (the oracle), and typed arrays, read
 * afresh or taken from `kept` (the tables of an earlier comparison, as a compare worker keeps
 * them), keeping each pairing for the next comparison of the same tables unless told not to.
 */
function bothWays(
  library: ColumnarLibrary,
  kept = new Map<ColumnarRun, ColumnRun>(),
  keepPairings = true,
) {
  const runRowid = (run: ColumnarRun) => Number(run.run.runId.slice(4)) + 1;
  const loaded = (run: ColumnarRun): LoadedRun => ({
    runRowid: runRowid(run),
    run: { ...run.run, examples: decodeRunColumns(run.bytes)! },
  });
  const columns = (run: ColumnarRun): ColumnRun => {
    let table = kept.get(run);
    if (!table) kept.set(run, (table = { run: run.run, table: readRunTable(run.bytes)! }));
    return table;
  };
  const objects = library.runs.map(loaded);
  const replicateObjects = library.replicates.map((r) => loaded(r).run);
  const referenceObject = objects.find((l) => l.run.conditionName === library.reference)!.run;
  const expected = buildExperimentReport(
    library.experiment,
    objects.map((l) => l.run),
    {
      reference: library.reference,
      resamples: library.resamples,
      replicates:
        replicateObjects.length > 0
          ? { [library.reference]: [referenceObject, ...replicateObjects] }
          : undefined,
    },
  );
  const tables = library.runs.map(columns);
  const referenceTable = tables.find((t) => t.run.conditionName === library.reference)!;
  const actual = buildColumnReport(library.experiment, tables, {
    reference: library.reference,
    resamples: library.resamples,
    keepPairings,
    replicates:
      library.replicates.length > 0
        ? [referenceTable, ...library.replicates.map(columns)]
        : undefined,
  });
  const byCondition = (name: string) => objects.find((l) => l.run.conditionName === name)!;
  const expectedPairs = expected.comparisons.map((c, index) =>
    encodePair(
      objectPairRows(index, byCondition(c.reference.condition), byCondition(c.candidate.condition)),
    ),
  );
  const actualPairs = actual.report.comparisons.map((c, index) =>
    encodePair(
      columnPairRows(index, actual.pairs[index]!, {
        reference: byCondition(c.reference.condition).runRowid,
        candidate: byCondition(c.candidate.condition).runRowid,
      }),
    ),
  );
  return { expected, actual: actual.report, expectedPairs, actualPairs, pairs: actual.pairs };
}

describe('the columnar comparison', () => {
  it('gives the object engine’s report byte for byte, and the same pair arrays', () => {
    fc.assert(
      fc.property(columnarLibraryArb, (library) => {
        const { expected, actual, expectedPairs, actualPairs } = bothWays(library);
        expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
        expect(actualPairs).toEqual(expectedPairs);
      }),
      { numRuns: 150 },
    );
  });

  it('gives the same again from the tables of an earlier comparison', () => {
    fc.assert(
      fc.property(columnarLibraryArb, (library) => {
        const kept = new Map<ColumnarRun, ColumnRun>();
        bothWays(library, kept);
        const { expected, actual, expectedPairs, actualPairs } = bothWays(library, kept);
        expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
        expect(actualPairs).toEqual(expectedPairs);
      }),
      { numRuns: 50 },
    );
  });

  it('gives the same with the roles swapped, each pairing mirrored from the one kept', () => {
    let mirrored = 0;
    fc.assert(
      fc.property(
        columnarLibraryArb.filter((l) => l.runs.length >= 2),
        (library) => {
          const kept = new Map<ColumnarRun, ColumnRun>();
          bothWays(library, kept);
          // The replicates belong to the first reference's condition: none for the other.
          const swapped = { ...library, reference: 'c1', replicates: [] };
          const { expected, actual, expectedPairs, actualPairs, pairs } = bothWays(swapped, kept);
          expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
          expect(actualPairs).toEqual(expectedPairs);
          if (pairs.some((p) => twinOf(p.pairing))) mirrored++;
          // In memory too, bit for bit (a zero difference's sign, NaN's bits), as paired anew.
          const anew = bothWays(swapped).pairs;
          const bits = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
          pairs.forEach((p, i) => {
            const q = anew[i]!;
            expect(bits(p.pairing.flags)).toEqual(bits(q.pairing.flags));
            expect(p.criteria.map((c) => bits(c.classes))).toEqual(
              q.criteria.map((c) => bits(c.classes)),
            );
            expect(p.criteria.map((c) => bits(c.deltas))).toEqual(
              q.criteria.map((c) => bits(c.deltas)),
            );
            expect(p.criteria.map((c) => c.summary)).toEqual(q.criteria.map((c) => c.summary));
          });
        },
      ),
      { numRuns: 100 },
    );
    expect(mirrored).toBeGreaterThan(50);
  });

  it('pairs kept tables anew, neither mirrored nor kept, when pairings are not kept', () => {
    fc.assert(
      fc.property(
        columnarLibraryArb.filter((l) => l.runs.length >= 2),
        (library) => {
          const kept = new Map<ColumnarRun, ColumnRun>();
          bothWays(library, kept);
          const swapped = { ...library, reference: 'c1', replicates: [] };
          const first = bothWays(swapped, kept, false);
          expect(JSON.stringify(first.actual)).toBe(JSON.stringify(first.expected));
          expect(first.actualPairs).toEqual(first.expectedPairs);
          expect(first.pairs.some((p) => twinOf(p.pairing))).toBe(false);
          const again = bothWays(swapped, kept, false);
          first.pairs.forEach((p, i) => expect(again.pairs[i]!.pairing).not.toBe(p.pairing));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('covers what the property is meant to reach', () => {
    // The generator must produce the report's rarer parts, or the property proves little.
    const seen = new Set<string>();
    fc.assert(
      fc.property(columnarLibraryArb, (library) => {
        const { actual, pairs } = bothWays(library);
        for (const { pairing: p } of pairs) {
          // The shortcuts taken over whole arrays: hashes equal throughout, columns fully valued.
          const bytes = (a: Uint32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
          if (
            p.n > 0 &&
            p.ref === p.cand &&
            bytes(p.reference.input).equals(bytes(p.candidate.input))
          )
            seen.add('the same inputs throughout');
          for (const field of [...p.reference.fields, ...p.candidate.fields])
            if (
              (field.kind === 'number' || field.kind === 'boolean') &&
              field.state.length > 0 &&
              !field.state.some((s) => s < 2)
            )
              seen.add(`a ${field.kind} field valued in every row`);
        }
        if (actual.noise_floor) seen.add('noise floor');
        if (actual.reproduction) seen.add('reproduction');
        if (actual.series.length > 0) seen.add('series');
        for (const c of actual.comparisons) {
          if (c.coverage.errored_reference) seen.add('errors');
          if (c.coverage.only_reference.length && c.coverage.only_candidate.length)
            seen.add('ids missing on both sides');
          // One array for both sides' positions (the same-ids paths in pairing and criteria).
          if (
            c.coverage.paired > 0 &&
            !c.coverage.only_reference.length &&
            !c.coverage.only_candidate.length
          )
            seen.add('the same ids on both sides');
          if (c.coverage.input_mismatch.length) seen.add('input mismatch');
          if (c.criteria.some((x) => x.kind === 'pass_fail')) seen.add('pass/fail');
          if (c.criteria.some((x) => x.wilcoxon)) seen.add('wilcoxon');
          if (c.criteria.some((x) => x.mcnemar)) seen.add('mcnemar');
          if (c.metrics.some((m) => m.paired?.p_value != null)) seen.add('paired');
          if (c.metrics.some((m) => m.not_comparable.length)) seen.add('confounded');
        }
        if (actual.comparisons.length > actual.runs.length - 1) seen.add('compare_to');
      }),
      { numRuns: 150 },
    );
    expect([...seen].sort()).toEqual(
      [
        'noise floor',
        'reproduction',
        'series',
        'errors',
        'ids missing on both sides',
        'the same ids on both sides',
        'the same inputs throughout',
        'a number field valued in every row',
        'a boolean field valued in every row',
        'input mismatch',
        'pass/fail',
        'wilcoxon',
        'mcnemar',
        'paired',
        'confounded',
        'compare_to',
      ].sort(),
    );
  });

  it('asks before each pair whether to stop, and stops when told', () => {
    const library = fc.sample(
      columnarLibraryArb.filter((l) => l.runs.length >= 3),
      { numRuns: 1, seed: 7 },
    )[0]!;
    const runs = library.runs.map((r) => ({ run: r.run, table: readRunTable(r.bytes)! }));
    let asked = 0;
    const { report } = buildColumnReport(library.experiment, runs, {
      reference: library.reference,
      checkCancelled: () => asked++,
    });
    expect(asked).toBe(report.comparisons.length);
    expect(() =>
      buildColumnReport(library.experiment, runs, {
        reference: library.reference,
        checkCancelled: () => {
          throw new Error('cancelled');
        },
      }),
    ).toThrow('cancelled');
  });
});
