import path from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../electron/core/dispatch';
import { PairwiseService } from '../../electron/core/service';
import { requests, type RequestName } from '../../shared/contract';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { fuzzRuns, fuzzSeed, fuzzTimeout } from '../fixtures/fuzz';
import { tempDir } from '../fixtures/tmp';

/**
 * Issue 7, property-based: every request name of shared/contract.ts, fed random input through
 * dispatch (what both hosts call), answers with a Result and never throws. Inputs are random
 * values, and random objects shaped like the request with real and made-up ids, so that many
 * pass validation and reach the service.
 */

const RUNS = fuzzRuns(40);
const EXPECTED_ERRORS = new Set(['bad_request', 'not_found', 'conflict', 'unknown_request']);

let dir: string;
let cleanup: () => void;
let service: PairwiseService;
const real = { experimentId: 'exp-test', reportKey: '', findingId: '', exampleIds: [] as string[] };
const internal: string[] = [];
const outputMismatch: string[] = [];
/** Per request: answers that got past validation (ok, or an error from the service itself). */
const reached = new Map<string, number>();

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  const lib = path.join(dir, 'lib');
  writeMechlensRun(lib, { id: 'ref', name: 'reference', examples: examples(5) });
  writeMechlensRun(lib, {
    id: 'int',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: examples(5, (i) => ({ refused: i % 2 === 1, score: 3 })),
  });
  service = new PairwiseService({
    dbPath: path.join(dir, 'pairwise.db'),
    host: 'cli',
    version: '0.0.0-test',
    indexWorkers: 1,
    sync: { timeoutMs: 200, maxWaitMs: 500, baseDelayMs: 10, maxDelayMs: 50 },
  });
  await service.index([lib]);
  const { key } = await service.compare.run({ experimentId: 'exp-test', resamples: 200 });
  real.reportKey = key;
  real.findingId = (
    await service.findings.create({ experimentId: 'exp-test', resamples: 200 })
  ).finding.id;
  real.exampleIds = examples(5).map((e) => e.id);
}, 60_000);

afterAll(async () => {
  await service.close();
  cleanup();
  console.info(
    `contract fuzz: ${internal.length} internal error(s), ${outputMismatch.length} output(s) off the schema; past validation: ${JSON.stringify(Object.fromEntries(reached))}`,
  );
});

const anyValue = fc.anything({ maxDepth: 3 });
const text = fc.string({ maxLength: 30 });

/** Mostly plausible values, sometimes anything at all. */
const mostly = (good: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 5, arbitrary: good }, { weight: 1, arbitrary: anyValue });

/** A value for a known input key: often a real id, sometimes nonsense of the right type. */
function valueFor(key: string): fc.Arbitrary<unknown> {
  const pick = <T>(...options: T[]) => fc.constantFrom(...options);
  switch (key) {
    case 'experimentId':
      return mostly(fc.oneof(pick(real.experimentId), text));
    case 'reportKey':
      return mostly(fc.oneof(pick(real.reportKey), text));
    case 'findingId':
      return mostly(fc.oneof(pick(real.findingId), text));
    case 'exampleId':
      return mostly(fc.oneof(pick(...real.exampleIds), text));
    case 'pair':
    case 'revision':
    case 'baseRevision':
    case 'limit':
    case 'resamples':
    case 'id':
      return mostly(fc.oneof(fc.integer({ min: -2, max: 400 }), pick(0, 1, 0.5, 1e9, NaN)));
    case 'role':
      return mostly(pick('reference', 'intervention', 'control', 'unknown', null));
    case 'condition':
    case 'reference':
      return mostly(fc.oneof(pick('reference', 'steer', null), text));
    case 'runId':
      return mostly(fc.oneof(pick('ref', 'int'), text));
    case 'sort':
      return mostly(pick('example_id', 'output_changed', 'behavior_changed'));
    case 'after':
      return mostly(fc.oneof(pick(null, 'ex-002', '\u0000', '~'), text));
    case 'descending':
    case 'countTotal':
    case 'dryRun':
    case 'watch':
      return mostly(fc.boolean());
    case 'format':
      return mostly(pick('markdown', 'html'));
    case 'url':
      // Only a closed local port: a fuzzed sync must never reach a real host.
      return fc.oneof(
        pick('http://127.0.0.1:9/', null, 'ftp://x', 'http://u:p@127.0.0.1:9/'),
        text,
      );
    case 'apiKey':
      return fc.oneof(pick(null, 'k'), text);
    case 'body':
      return fc.oneof(
        fc.record(
          {
            question: text,
            claim: text,
            protocol: text,
            conclusion: text,
            limitations: fc.array(
              fc.oneof(
                fc.record({
                  id: text,
                  text,
                  origin: pick('candidate', 'researcher'),
                  status: pick('accepted', 'edited', 'dismissed', 'proposed'),
                }),
                anyValue,
              ),
              { maxLength: 2 },
            ),
            pinned: fc.array(
              fc.record({
                reportKey: pick(real.reportKey),
                pair: pick(0, 5),
                exampleId: pick(...real.exampleIds, 'nope'),
                note: text,
              }),
              { maxLength: 2 },
            ),
          },
          {
            requiredKeys: ['question', 'claim', 'protocol', 'conclusion', 'limitations', 'pinned'],
          },
        ),
        anyValue,
      );
    case 'filter':
      return fc.oneof(
        fc.record(
          {
            criterion: text,
            changeClass: pick('improved', 'regressed', 'x'),
            search: text,
            side: pick('both', 'reference', 'candidate'),
          },
          { requiredKeys: [] },
        ),
        anyValue,
      );
    default:
      return mostly(fc.oneof(text, fc.boolean()));
  }
}

function shaped(name: RequestName): fc.Arbitrary<unknown> {
  const schema = requests[name].input as unknown as z.ZodObject;
  const keys = Object.keys(schema.shape ?? {});
  const known = fc.record(Object.fromEntries(keys.map((k) => [k, valueFor(k)])), {
    requiredKeys: [],
  });
  const extra = fc.dictionary(text, anyValue, { maxKeys: 2 });
  return fc.oneof(
    { weight: 4, arbitrary: known },
    { weight: 1, arbitrary: fc.tuple(known, extra).map(([a, b]) => ({ ...b, ...a })) },
    { weight: 1, arbitrary: anyValue },
  );
}

/** Valid inputs that would reach outside the test: indexing an arbitrary path. */
function outOfBounds(name: RequestName, input: unknown): boolean {
  if (name !== 'library:addFolder') return false;
  const parsed = requests[name].input.safeParse(input);
  return parsed.success && !path.resolve(parsed.data.path).startsWith(dir + path.sep);
}

async function callOnce(name: unknown, input: unknown): Promise<void> {
  const result = await dispatch(service, name, input);
  expect(typeof result.ok).toBe('boolean');
  if (result.ok || result.error.code !== 'bad_request')
    reached.set(String(name), (reached.get(String(name)) ?? 0) + 1);
  if (!result.ok) {
    expect(typeof result.error.message).toBe('string');
    if (result.error.code === 'internal') internal.push(`${String(name)}: ${result.error.message}`);
    else expect(EXPECTED_ERRORS).toContain(result.error.code);
    return;
  }
  const check = requests[name as RequestName].output.safeParse(result.value);
  if (!check.success) outputMismatch.push(`${String(name)}: ${check.error.message.slice(0, 300)}`);
}

describe('contract fuzzing: random input to every request', () => {
  // First: the properties below may remove the folder or evict this report.
  it('refuses a forged page cursor as bad_request (it was an internal error)', async () => {
    for (const after of ['~', '"5"', '[{"a":1},"x"]', '[1]', '[1,2]', 'null']) {
      const result = await dispatch(service, 'examples:page', {
        reportKey: real.reportKey,
        pair: 0,
        sort: 'output_changed',
        after,
      });
      expect(result, after).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    }
    const first = await dispatch(service, 'examples:page', {
      reportKey: real.reportKey,
      pair: 0,
      limit: 2,
    });
    const next = first.ok ? (first.value as { next: string }).next : null;
    expect(next).toEqual(expect.any(String));
    expect(
      await dispatch(service, 'examples:page', { reportKey: real.reportKey, pair: 0, after: next }),
    ).toMatchObject({ ok: true });
  });

  it.each(Object.keys(requests) as RequestName[])(
    '%s answers with a Result, never a throw',
    async (name) => {
      await fc.assert(
        fc.asyncProperty(shaped(name), async (input) => {
          if (outOfBounds(name, input)) return;
          await callOnce(name, input);
        }),
        { numRuns: RUNS, seed: fuzzSeed() },
      );
    },
    fuzzTimeout(RUNS, 50),
  );

  it('unknown request names are refused as unknown_request', async () => {
    await fc.assert(
      fc.asyncProperty(anyValue, anyValue, async (name, input) => {
        fc.pre(typeof name !== 'string' || !Object.hasOwn(requests, name));
        const result = await dispatch(service, name, input);
        expect(result).toMatchObject({ ok: false, error: { code: 'unknown_request' } });
      }),
      { numRuns: RUNS, seed: fuzzSeed() },
    );
  });

  it('no request failed as "internal" and every answer matched its output schema', () => {
    expect(internal).toEqual([]);
    expect(outputMismatch).toEqual([]);
  });
});
