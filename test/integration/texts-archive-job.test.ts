import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PairwiseService } from '../../electron/core/service';
import { pendingRuns } from '../../electron/core/search/readiness';
import { blocksToArchive } from '../../electron/core/texts/archive';
import { BLOCK_SIZE, type TextRow } from '../../electron/core/texts/blocks';
import { encodeLocatedBlock, LOCATED } from '../../electron/core/texts/located';
import { TextReader } from '../../electron/core/texts/read';
import type { Db } from '../../electron/core/db/open';
import type { Job } from '../../shared/jobs';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { comparing, tick } from '../fixtures/search';
import { makeService, type Harness } from '../fixtures/service';

let harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses) await h.close();
  harnesses = [];
});

function open(options: Parameters<typeof makeService>[0]): Harness {
  const harness = makeService(options);
  harnesses.push(harness);
  return harness;
}

/** Examples per run: three blocks each, so a stepwise archive stops between blocks. */
const PER_RUN = 2 * BLOCK_SIZE + 52;

function writeLibrary(root: string, runs = 2, mark = ''): void {
  for (let r = 0; r < runs; r++)
    writeMechlensRun(root, {
      id: `run-${r}`,
      name: `run ${r}`,
      experiment: { id: 'exp-archive', role: r === 0 ? 'reference' : 'intervention' },
      examples: examples(PER_RUN).map((e) => ({ ...e, output: `${e.output}${mark} (run ${r})` })),
    });
}

function encodings(db: Db): string[] {
  return db
    .prepare(`SELECT encoding FROM run_texts ORDER BY run_rowid, block`)
    .pluck()
    .all() as string[];
}

/** Every run's texts by run id, as any reader gets them. */
function texts(db: Db): Record<string, TextRow[]> {
  const reader = new TextReader(db);
  const runs = db.prepare(`SELECT rowid, id FROM runs ORDER BY id`).all() as {
    rowid: number;
    id: string;
  }[];
  return Object.fromEntries(
    runs.map((run) => [run.id, [...reader.run(run.rowid)].map(([, row]) => row)]),
  );
}

const jobsOf = (service: PairwiseService, kind: Job['kind']) =>
  service.jobs.list().filter((j) => j.kind === kind);

async function untilArchiveRuns(service: PairwiseService): Promise<void> {
  while (!service.jobs.running('archive')) await tick();
}

describe('the background texts archive', () => {
  it('runs once search is ready and leaves every block in sections, read as before', async () => {
    const plain = open({});
    const archived = open({ archive: true });
    for (const h of [plain, archived]) {
      const root = path.join(h.dir, 'lib');
      writeLibrary(root);
      await h.service.index([root]);
    }
    await plain.service.search.idle();
    await archived.service.archive.idle();
    expect(pendingRuns(archived.service.db)).toEqual([]);
    expect(encodings(plain.service.db)).toEqual(Array(6).fill('json'));
    expect(encodings(archived.service.db)).toEqual(Array(6).fill('sections'));
    expect(texts(archived.service.db)).toEqual(texts(plain.service.db));
    // Search first: the archive started only once the fill had finished.
    const [fill] = jobsOf(archived.service, 'search');
    const [archive] = jobsOf(archived.service, 'archive');
    expect(archive).toMatchObject({ state: 'finished', title: 'Archiving texts' });
    expect(archive!.progress).toMatchObject({ phase: 'Archiving texts', done: 6, total: 6 });
    expect(archive!.createdAt >= fill!.finishedAt!).toBe(true);
    expect(archived.service.archive.stats).toMatchObject({ archived: 6, left: 0 });
    const { bytes, compressedBytes } = archived.service.archive.stats;
    expect(compressedBytes).toBeLessThan(bytes / 2);
    // Nothing left: indexing again starts no other archive.
    await archived.service.index([path.join(archived.dir, 'lib')]);
    await archived.service.archive.idle();
    expect(jobsOf(archived.service, 'archive')).toHaveLength(1);
  });

  it('waits while a comparison runs', async () => {
    const { service, dir } = open({ archive: true, archiveSliceMs: 0 });
    const compare = comparing(service.jobs);
    const root = path.join(dir, 'lib');
    writeLibrary(root);
    await service.index([root]);
    await service.search.idle();
    await untilArchiveRuns(service);
    // Paused: however long it is left, no block is archived.
    for (let i = 0; i < 10; i++) await tick();
    expect(blocksToArchive(service.db)).toBe(6);
    await compare.release();
    await service.archive.idle();
    expect(encodings(service.db)).toEqual(Array(6).fill('sections'));
  });

  it('is safe when the library is indexed again while it archives', async () => {
    const { service, dir } = open({ archive: true, archiveSliceMs: 0 });
    const root = path.join(dir, 'lib');
    writeLibrary(root, 3);
    await service.index([root]);
    await service.search.idle();
    while (!encodings(service.db).includes('sections')) await tick();
    // New texts in every file, their blocks written under the same run rowids.
    writeLibrary(root, 3, ' again');
    const later = new Date(Date.now() + 5000);
    for (const file of fs.readdirSync(root, { recursive: true, encoding: 'utf8' }))
      if (file.endsWith('.json')) fs.utimesSync(path.join(root, file), later, later);
    await service.index([root]);
    await service.archive.idle();
    expect(pendingRuns(service.db)).toEqual([]);
    expect(encodings(service.db)).toEqual(Array(9).fill('sections'));
    const read = texts(service.db);
    expect(Object.keys(read)).toEqual(['run-0', 'run-1', 'run-2']);
    for (const [id, rows] of Object.entries(read)) {
      expect(rows).toHaveLength(PER_RUN);
      expect(rows[PER_RUN - 1]!.output).toBe(
        `Answer number ${PER_RUN}. again (${id.replace('-', ' ')})`,
      );
    }
  });

  it('reports a block it must leave located once, and does not try it again', async () => {
    const { service, dir } = open({ archive: true });
    const root = path.join(dir, 'lib');
    writeLibrary(root);
    await service.index([root]);
    await service.archive.idle();
    // A block whose source is gone since indexing: the archive cannot check its texts.
    const gone = { path: path.join(dir, 'gone.json'), size: 10, mtimeMs: 1 };
    const row = {
      input: 'a prompt',
      output: 'an answer',
      fields: '{}',
      target: null,
      error: null,
      located: { input: { start: 1, end: 11 }, output: null },
      inputHash: 'a'.repeat(40),
      outputHash: 'b'.repeat(40),
    };
    service.db
      .prepare(`UPDATE run_texts SET encoding = ?, data = ? WHERE block = 0`)
      .run(LOCATED, encodeLocatedBlock(gone, [row]));
    await service.index([root]);
    await service.archive.idle();
    const archives = () => jobsOf(service, 'archive');
    expect(archives()).toHaveLength(2);
    expect(archives()[0]!.progress).toMatchObject({ done: 2, total: 2 });
    expect(archives()[0]!.progress?.detail).toMatch(/2 blocks kept in place/);
    expect(service.archive.stats.left).toBe(2);
    expect(encodings(service.db).filter((e) => e === LOCATED)).toHaveLength(2);
    // Nothing new to archive: another pass starts no job for the blocks it left.
    await service.index([root]);
    await service.archive.idle();
    expect(archives()).toHaveLength(2);
    expect(service.archive.stats.left).toBe(2);
  });

  it('is cancelled when the service closes, leaving blocks that read the same', async () => {
    const { service, dir, close } = makeService({ archive: true, archiveSliceMs: 0 });
    const compare = comparing(service.jobs);
    const root = path.join(dir, 'lib');
    writeLibrary(root);
    await service.index([root]);
    await service.search.idle();
    await untilArchiveRuns(service);
    const before = texts(service.db);
    const closing = service.close();
    await compare.release();
    await closing;
    const reopened = new PairwiseService({
      dbPath: path.join(dir, 'pairwise.db'),
      host: 'cli',
      version: '0.0.0-test',
    });
    try {
      const [archive] = reopened.jobs.list().filter((j) => j.kind === 'archive');
      expect(archive?.state).toBe('cancelled');
      expect(texts(reopened.db)).toEqual(before);
    } finally {
      await reopened.close();
      await close();
    }
  });
});
