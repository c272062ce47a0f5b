import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairedBootstrap } from '../../../shared/compare/bootstrap';
import { buildExperimentReport, compareRuns } from '../../../shared/compare/report';
import { sha256Hex } from '../../../shared/compare/sha256';
import type { Comparison, CompareRun } from '../../../shared/compare/types';
import { cloneRun, makeExperiment, relabel, runArb } from '../../fixtures/compare';

const experiment = makeExperiment();
const options = { resamples: 200 };
const twoRuns = fc.tuple(runArb('run-a', 'reference'), runArb('run-b', 'candidate'));

describe('bootstrap properties', () => {
  it('the interval contains the mean difference', () => {
    // A percentile interval brackets the mean only with enough resamples (with B = 1 it is a
    // single resampled mean), so B stays at a realistic size here.
    const differences = fc.oneof(
      fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 60 }),
      // Few distinct values and many pairs: the multinomial count path.
      fc.array(fc.integer({ min: -2, max: 2 }), { minLength: 250, maxLength: 400 }),
    );
    fc.assert(
      fc.property(differences, fc.integer({ min: 0, max: 1000 }), (d, seed) => {
        const result = pairedBootstrap(d, sha256Hex(String(seed)), 1000);
        expect(result.ci95[0]).toBeLessThanOrEqual(result.mean);
        expect(result.ci95[1]).toBeGreaterThanOrEqual(result.mean);
      }),
    );
  });

  it('in a comparison, every interval contains its paired difference', () => {
    fc.assert(
      fc.property(twoRuns, ([a, b]) => {
        for (const m of compareRuns(experiment, a, b, options).metrics) {
          if (!m.paired?.ci95) continue;
          expect(m.paired.ci95[0]).toBeLessThanOrEqual(m.paired.difference!);
          expect(m.paired.ci95[1]).toBeGreaterThanOrEqual(m.paired.difference!);
        }
      }),
    );
  });
});

/** A comparison seen from the other side, for comparing with the swapped one. */
function mirrored(c: Comparison) {
  const negate = (x: number | null) => (x === null ? null : 0 - x);
  return {
    checks: c.checks.map((x) => ({ ...x, reference: x.candidate, candidate: x.reference })),
    summary: c.summary,
    coverage: {
      ...c.coverage,
      only_reference: c.coverage.only_candidate,
      only_candidate: c.coverage.only_reference,
      ...(c.coverage.errored_reference && {
        errored_reference: c.coverage.errored_candidate,
        errored_candidate: c.coverage.errored_reference,
      }),
    },
    examples: c.examples,
    criteria: c.criteria.map((x) => ({
      ...x,
      improved: x.regressed,
      regressed: x.improved,
      mcnemar: x.mcnemar && {
        improved: x.mcnemar.regressed,
        regressed: x.mcnemar.improved,
        p_value: x.mcnemar.p_value,
      },
    })),
    metrics: c.metrics.map((m) => ({
      name: m.name,
      example_field: m.example_field,
      reported: {
        reference: m.reported.candidate,
        candidate: m.reported.reference,
        difference: negate(m.reported.difference),
      },
      paired: m.paired && {
        ...m.paired,
        difference: negate(m.paired.difference),
        ci95: m.paired.ci95 && [0 - m.paired.ci95[1], 0 - m.paired.ci95[0]],
      },
      // What confounds a metric does not depend on which side is the reference.
      not_comparable: m.not_comparable,
    })),
  };
}

function sideless(c: Comparison) {
  const { reference: _r, candidate: _c, limitations: _l, evaluated_differs: _e, ...rest } = c;
  return {
    ...rest,
    // The description is the reference's (else the candidate's): a sided field.
    metrics: c.metrics.map(
      ({ expect: _x, verdict: _v, direction: _d, description: _s, ...m }) => m,
    ),
  };
}

describe('comparison properties', () => {
  it('swapping reference and candidate negates differences and mirrors intervals exactly', () => {
    fc.assert(
      fc.property(twoRuns, ([a, b]) => {
        const forward = compareRuns(experiment, a, b, options);
        const backward = compareRuns(experiment, b, a, options);
        // toEqual treats 0 and -0 as different, so "exactly" includes the sign of zero.
        expect(sideless(backward)).toEqual(mirrored(forward));
      }),
    );
  });

  it('identical runs: every check matches, no difference, nothing changes', () => {
    fc.assert(
      fc.property(runArb('run-a', 'reference'), (a) => {
        const b: CompareRun = { ...cloneRun(a), runId: 'run-b', conditionName: 'copy' };
        const c = compareRuns(experiment, a, b, options);
        expect(c.checks.every((x) => x.status === 'matches')).toBe(true);
        expect(c.evaluated_differs).toBe(false);
        expect(c.examples).toEqual({ behavior_changed: [], output_changed: [] });
        expect(c.coverage.paired).toBe(a.examples.length);
        for (const criterion of c.criteria) {
          expect([criterion.improved, criterion.regressed, criterion.changed]).toEqual([0, 0, 0]);
        }
        for (const m of c.metrics) {
          expect(m.reported.difference).toBe(0);
          if (m.paired && m.paired.n > 0) {
            expect(m.paired.difference).toBe(0);
            // No change is not proof of none: the interval contains 0 but need not be [0, 0]
            // (a score interval of n unchanged pass/fail pairs has width), and one pair of a
            // continuous value has no interval at all.
            if (m.paired.n > 1) {
              expect(m.paired.ci95![0]).toBeLessThanOrEqual(0);
              expect(m.paired.ci95![1]).toBeGreaterThanOrEqual(0);
            }
            expect(m.paired.p_value).toBe(1);
          }
        }
      }),
    );
  });

  it('the same inputs give byte-identical JSON', () => {
    fc.assert(
      fc.property(twoRuns, ([a, b]) => {
        const once = JSON.stringify(buildExperimentReport(experiment, [a, b], options));
        const again = JSON.stringify(
          buildExperimentReport(experiment, [cloneRun(b), cloneRun(a)], options),
        );
        expect(again).toBe(once);
      }),
      { numRuns: 50 },
    );
  });

  it('relabelling example ids does not change any statistic', () => {
    // Reverses the order of the ids, so both sorting and positions change.
    const rename = (id: string) => `q-${99 - Number(id.slice(3))}`;
    const stats = (c: Comparison) => ({
      summary: c.summary,
      paired: c.coverage.paired,
      counts: [c.coverage, c.examples].map((o) =>
        Object.values(o).map((v) => (Array.isArray(v) ? v.length : v)),
      ),
      criteria: c.criteria,
      metrics: c.metrics.map((m) => ({
        ...m,
        paired: m.paired && { ...m.paired, input_mismatch: m.paired.input_mismatch.length },
      })),
    });
    fc.assert(
      fc.property(twoRuns, ([a, b]) => {
        const original = compareRuns(experiment, a, b, options);
        const renamed = compareRuns(experiment, relabel(a, rename), relabel(b, rename), options);
        expect(stats(renamed)).toEqual(stats(original));
      }),
    );
  });
});
