import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Io } from '../../electron/cli/commands';
import { compareCommand } from '../../electron/cli/compare';
import { listExperiments } from '../../electron/core/experiments';
import type { Report } from '../../shared/compare/types';
import { evalSample, jsonLog } from '../fixtures/inspect';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** Two Inspect logs of one task; the samples listed in `errored` failed with an error. */
function writeLog(dir: string, name: string, model: string, errored: number[]): void {
  const samples = [1, 2, 3, 4, 5].map((id) =>
    evalSample(
      errored.includes(id)
        ? { id, output: '', scores: { match: 'I' }, error: 'RateLimitError: 429' }
        : { id, scores: { match: 'C' } },
    ),
  );
  const log = jsonLog({ model, samples, evalId: `eval${name.padEnd(18, 'X')}` });
  fs.writeFileSync(
    path.join(dir, `2025-05-12T20-28-26-04-00_popularity_${name}.json`),
    JSON.stringify(log),
  );
}

async function compare(dbPath: string, format: string): Promise<string> {
  const lines: string[] = [];
  const io: Io = { out: (t) => lines.push(t), err: (t) => lines.push(t) };
  const [experiment] = listExperiments(harness!.service.db);
  const flags = { db: dbPath, experiment: experiment!.id, format, resamples: '200' };
  expect(await compareCommand([], flags, io)).toBe(0);
  return lines.join('\n');
}

describe('errored samples from a real import path', () => {
  it('are counted in the coverage, left out of the statistics, and shown in the table', async () => {
    harness = makeService();
    const dir = path.join(harness.dir, 'logs');
    fs.mkdirSync(dir);
    writeLog(dir, 'a', 'openai/gpt-4o-mini', [2, 3]);
    writeLog(dir, 'b', 'openai/gpt-4o', [5]);
    await harness.service.index([dir]);
    const dbPath = harness.service.db.name;
    const report = JSON.parse(await compare(dbPath, 'json')) as Report;
    const [c] = report.comparisons;
    const reference = c!.reference.condition.startsWith('openai/gpt-4o-mini') ? 'a' : 'b';
    const expected = { a: ['2', '3'], b: ['5'] };
    expect(c!.coverage.errored_reference).toEqual(expected[reference]);
    expect(c!.coverage.errored_candidate).toEqual(expected[reference === 'a' ? 'b' : 'a']);
    const match = c!.criteria.find((k) => k.field === 'match')!;
    expect(match).toMatchObject({ not_comparable: 3, unchanged: 2, improved: 0, regressed: 0 });
    const table = await compare(dbPath, 'table');
    expect(table).toMatch(/errored: \d on the reference, \d on the candidate — left out/);
  });
});
