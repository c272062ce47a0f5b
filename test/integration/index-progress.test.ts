import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobProgress } from '../../shared/jobs';
import { openDatabase } from '../../electron/core/db/open';
import { indexUnit, type IndexTask } from '../../electron/core/ingest/index-unit';
import { indexPaths } from '../../electron/core/ingest/indexer';
import { IndexStore } from '../../electron/core/ingest/store';
import type { WorkerPool } from '../../electron/core/jobs/pool';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { tempDir } from '../fixtures/tmp';

let cleanup: () => void = () => undefined;
afterEach(() => cleanup());

describe('index progress', () => {
  it('counts bytes of finished files and how far the workers are into the ones they stream', async () => {
    const t = tempDir();
    const db = openDatabase(path.join(t.dir, 'pairwise.db'));
    cleanup = () => {
      db.close();
      t.cleanup();
    };
    const root = path.join(t.dir, 'lib');
    const files = [
      writeMechlensRun(root, { id: 'a', examples: examples(20) }),
      writeMechlensRun(root, { id: 'b', examples: examples(30) }),
    ];
    const totalBytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
    // Each worker says it is 100 bytes into its file before storing it, as a streamed one does.
    const store = new IndexStore(db);
    const pool = {
      run: (
        task: IndexTask,
        options: { signal: AbortSignal; onProgress?(p: JobProgress): void },
      ) => {
        options.onProgress?.({ phase: 'indexing', done: 0, total: null, bytes: 100 });
        return indexUnit(task, store, options.signal);
      },
    } as unknown as WorkerPool;
    const seen: JobProgress[] = [];
    const stats = await indexPaths({
      db,
      pool,
      paths: [root],
      signal: new AbortController().signal,
      progress: (p) => seen.push(p),
    });
    expect(stats.sources.imported).toBe(2);
    const indexing = seen.filter((p) => p.phase === 'indexing');
    expect(indexing.every((p) => p.totalBytes === totalBytes)).toBe(true);
    // Both files under way, neither finished: 100 bytes into each.
    expect(indexing.map((p) => p.bytes)).toContain(200);
    expect(seen.at(-1)).toMatchObject({ phase: 'done', bytes: totalBytes, totalBytes });
  });
});
