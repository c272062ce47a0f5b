import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PairwiseService } from '../../electron/core/service';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { tempDir } from '../fixtures/tmp';
import { seededIntegers } from '../fixtures/random';

const root = path.resolve(__dirname, '../..');
let cleanup = () => undefined as void;
afterEach(() => cleanup());

/** Runs the saver until it has acknowledged something, then kills it `delay` ms later. */
async function saveUntilKilled(
  dbPath: string,
  findingId: string,
  delay: number,
): Promise<number[]> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'test/fixtures/findings-saver.ts'), dbPath, findingId],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const acked: number[] = [];
  let buffer = '';
  let stderr = '';
  let timer: NodeJS.Timeout | undefined;
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      const match = /^ack (\d+)$/.exec(line);
      if (match) acked.push(Number(match[1]));
      if (match && !timer) timer = setTimeout(() => child.kill('SIGKILL'), delay);
    }
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, s) => resolve(s)),
  );
  clearTimeout(timer);
  expect(signal, stderr).toBe('SIGKILL');
  return acked;
}

describe('SIGKILL while saving a finding', () => {
  it('keeps every acknowledged revision (with its outbox row) and a sound database', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const dbPath = path.join(t.dir, 'pairwise.db');
    const lib = path.join(t.dir, 'lib');
    writeMechlensRun(lib, { id: 'ref', name: 'reference', examples: examples(10) });
    writeMechlensRun(lib, {
      id: 'steer',
      name: 'steer',
      experiment: { id: 'exp-test', role: 'intervention' },
      examples: examples(10, (i) => ({ refused: i % 3 === 0, score: 1 })),
    });
    const service = new PairwiseService({
      dbPath,
      host: 'cli',
      version: '0.0.0-test',
      indexWorkers: 1,
    });
    await service.index([lib]);
    const { finding } = await service.findings.create({ experimentId: 'exp-test', resamples: 200 });
    await service.close();

    const acked: number[] = [];
    for (const delay of seededIntegers(20261129, 5, 5, 400)) {
      acked.push(...(await saveUntilKilled(dbPath, finding.id, delay)));
      const db = new Database(dbPath, { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const saved = new Map(
          (
            db
              .prepare(
                `SELECT revision, json_extract(body, '$.conclusion') AS conclusion FROM finding_revisions WHERE finding_id = ?`,
              )
              .all(finding.id) as { revision: number; conclusion: string }[]
          ).map((r) => [r.revision, r.conclusion]),
        );
        const queued = new Set(
          (
            db.prepare(`SELECT idempotency_key FROM outbox WHERE kind = 'finding'`).all() as {
              idempotency_key: string;
            }[]
          ).map((r) => r.idempotency_key),
        );
        for (const revision of acked) {
          expect(saved.get(revision)?.startsWith(`saved ${revision}\n`)).toBe(true);
          expect(queued.has(`${finding.id}:${revision}`)).toBe(true);
        }
        const current = db
          .prepare(`SELECT current_revision FROM findings WHERE id = ?`)
          .get(finding.id) as {
          current_revision: number;
        };
        expect(current.current_revision).toBe(Math.max(...saved.keys()));
        expect(current.current_revision).toBeGreaterThanOrEqual(Math.max(...acked));
      } finally {
        db.close();
      }
    }
    expect(acked.length).toBeGreaterThan(5);
    expect(new Set(acked).size).toBe(acked.length);
  }, 120_000);
});
