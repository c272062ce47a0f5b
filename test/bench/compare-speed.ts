/**
 * Speed check for the comparison engine (not a test): 100,000 paired examples × 3 metrics ×
 * B = 10,000 resamples. Run with `npx tsx test/bench/compare-speed.ts`.
 */

import { compareRuns, pairedBootstrap, Xoshiro128 } from '../../shared/compare';
import type { CompareExperiment, CompareRun } from '../../shared/compare';
import { makeRun } from '../fixtures/compare';

const N = 100_000;
const B = 10_000;

/** A run of N examples whose scores lean by `shift` (0 for the reference). */
function speedRun(runId: string, rng: Xoshiro128, shift: number): CompareRun {
  const examples = [];
  for (let i = 0; i < N; i++) {
    const score = 1 + Math.min(4, Math.floor(rng.nextDouble() * 5 + shift));
    examples.push({
      id: `ex-${String(i).padStart(6, '0')}`,
      input: `prompt ${i}`,
      output: rng.nextDouble() < 0.3 + shift / 10 ? 'I refuse.' : `answer ${i}`,
      fields: {
        refused: rng.nextDouble() < 0.3 - shift / 10,
        score,
        grade: rng.nextDouble() < 0.6 + shift / 10 ? 'C' : 'I',
      },
      error: null,
    });
  }
  const definition = (field: string, direction: 'higher_is_better' | 'lower_is_better') => ({
    example_field: field,
    direction,
  });
  return makeRun({
    runId,
    conditionName: runId,
    metrics: { refusal_rate: 0.3, mean_score: 3, accuracy: 0.6 },
    metricDefinitions: {
      refusal_rate: definition('refused', 'lower_is_better'),
      mean_score: definition('score', 'higher_is_better'),
      accuracy: definition('grade', 'higher_is_better'),
    },
    examples,
  });
}

const rng = new Xoshiro128('0123456789abcdef0123456789abcdef');
const reference = speedRun('run-a', rng, 0);
const candidate = speedRun('run-b', rng, 0.5);
const experiment: CompareExperiment = {
  id: 'bench',
  project: 'bench',
  name: 'bench',
  question: null,
  claim: null,
  deviations: [],
  reproduces: null,
};

function time<T>(label: string, run: () => T): T {
  const start = performance.now();
  const result = run();
  console.log(`${label}: ${(performance.now() - start).toFixed(0)} ms`);
  return result;
}

const diffs = ['refused', 'score', 'grade'].map((field) =>
  Float64Array.from(reference.examples, (e, i) => {
    const value = (v: unknown) =>
      v === true || v === 'C' ? 1 : v === false || v === 'I' ? 0 : Number(v);
    return value(candidate.examples[i]!.fields[field]) - value(e.fields[field]);
  }),
);
const seed = 'fedcba9876543210fedcba9876543210';
for (let round = 1; round <= 2; round++) {
  time(`round ${round}: bootstrap only, ${N} pairs × 3 metrics × B=${B}`, () =>
    diffs.map((d) => pairedBootstrap(d, seed, B)),
  );
}
for (let round = 1; round <= 2; round++) {
  const comparison = time(`round ${round}: compareRuns (checks, criteria, 3 metrics, tests)`, () =>
    compareRuns(experiment, reference, candidate, { resamples: B }),
  );
  if (round === 2) {
    for (const m of comparison.metrics) {
      console.log(
        `  ${m.name}: n=${m.paired?.n} diff=${m.paired?.difference} ci=${JSON.stringify(m.paired?.ci95)}`,
      );
    }
  }
}
const continuous = Float64Array.from({ length: N }, () => rng.nextDouble() - 0.5);
time(`continuous differences (index resampling), ${N} pairs × 1 metric × B=10000`, () =>
  pairedBootstrap(continuous, seed, B),
);
