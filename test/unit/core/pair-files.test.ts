import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageExamples } from '../../../electron/core/compare/pager';
import { openPair } from '../../../electron/core/compare/pair-cache';
import { idAt } from '../../../electron/core/compare/pair-arrays';
import {
  decodePair,
  type PairMeta,
  type PairSource,
} from '../../../electron/core/compare/pair-decode';
import {
  openPairFile,
  pairDir,
  setLibraryFile,
  sweepPairFiles,
  type PairFile,
} from '../../../electron/core/compare/pair-files';
import { pruneReports, readReport } from '../../../electron/core/compare/store';
import { openDatabase } from '../../../electron/core/db/open';
import { NotFoundError } from '../../../electron/core/errors';
import { explorerLibrary, unchangedFlags, type ExplorerLibrary } from '../../fixtures/explorer';
import { makeService, type Harness } from '../../fixtures/service';

let harness: Harness;
let library: ExplorerLibrary;
beforeAll(async () => {
  harness = makeService();
  library = await explorerLibrary(harness);
}, 60_000);

afterAll(async () => {
  await harness.close();
});

const db = () => harness.service.db;

function page(key: string, from = db()) {
  return pageExamples(from, {
    reportKey: key,
    pair: 0,
    filter: {},
    sort: 'example_id',
    descending: false,
    after: null,
    limit: 500,
  });
}

function fileOf(key: string): string {
  return db()
    .prepare(
      `SELECT file FROM pair_arrays WHERE report_id = (SELECT id FROM reports WHERE key = ?)`,
    )
    .pluck()
    .get(key) as string;
}

const pairFiles = () => fs.readdirSync(pairDir(db())).sort();

function expectNotCached(key: string): void {
  expect(() => page(key)).toThrow(NotFoundError);
  expect(() => page(key)).toThrow('That comparison is no longer cached: run it again.');
  expect(readReport(db(), key)).toBeNull();
}

describe('pair files', () => {
  it('live beside the library, named by the pair row, and page every example', async () => {
    await library.store('plain');
    expect(pairDir(db())).toBe(`${db().name}.pairs`);
    expect(pairFiles()).toContain(fileOf('plain'));
    expect(page('plain').rows.map((r) => r.example_id)).toEqual([...library.ids].sort());
    expect(readReport(db(), 'plain')).not.toBeNull();
  });

  it('a missing file answers "no longer cached", never rows, and the report counts as not cached', async () => {
    await library.store('missing');
    fs.rmSync(path.join(pairDir(db()), fileOf('missing')));
    expectNotCached('missing');
  });

  it('a damaged file (size, magic or section lengths) answers "no longer cached"', async () => {
    const damage: Record<string, (file: string) => void> = {
      truncated: (file) => fs.truncateSync(file, fs.statSync(file).size - 8),
      magic: (file) => {
        const data = fs.readFileSync(file);
        data.write('NOTAPAIR', 0, 'latin1');
        fs.writeFileSync(file, data);
      },
      lengths: (file) => {
        const data = fs.readFileSync(file);
        data.writeUInt32LE(data.readUInt32LE(12) ^ 0x100, 12);
        fs.writeFileSync(file, data);
      },
    };
    for (const [kind, spoil] of Object.entries(damage)) {
      const key = `damaged-${kind}`;
      await library.store(key);
      spoil(path.join(pairDir(db()), fileOf(key)));
      expectNotCached(key);
    }
  });

  it("reads a big file's arrays when first asked for, row ranges alike, and a file gone by then as null", async () => {
    await library.store('lazy');
    const row = db()
      .prepare(`SELECT * FROM pair_arrays WHERE report_id = (SELECT id FROM reports WHERE key = ?)`)
      .get('lazy') as PairMeta & { file: string; bytes: number };
    // A threshold of 0 reads it as a pair file too big to read whole at once.
    const lazy = openPairFile(db(), row.file, row.bytes, 0)!;
    const whole = openPairFile(db(), row.file, row.bytes)!;
    const source = (file: PairFile): PairSource => ({
      length: (section) => file.lengths[section],
      read: (section) => file.read(section)!,
      readRanges: (section, ranges) => file.readRanges(section, ranges)!,
      scan: (section, chunk, overlap, visit) => {
        file.scan(section, chunk, overlap, visit);
      },
      readEach: (section, ranges, chunk, visit) => {
        file.readEach(section, ranges, chunk, visit);
      },
    });
    const byRow = decodePair(row, source(lazy));
    const all = decodePair(row, source(whole));
    const ks = Array.from({ length: row.rows }, (_, k) => row.rows - 1 - k);
    const expected = {
      ids: ks.map((k) => idAt(all, k)),
      ref: ks.map((k) => all.refRowids[k]!),
      cand: ks.map((k) => all.candRowids[k]!),
    };
    expect(byRow.rowsAt(ks)).toEqual(expected);
    // A page's flags and classes row by row, and one criterion's classes alone, as the arrays hold them.
    const codes = {
      flags: ks.map((k) => all.flags[k]!),
      classes: all.criteria.map((_, c) => ks.map((k) => all.classes[c]![k]!)),
    };
    expect(byRow.codesAt(ks)).toEqual(codes);
    all.criteria.forEach((_, c) => expect([...byRow.classOf(c)]).toEqual([...all.classes[c]!]));
    expect(byRow.codesAt(ks)).toEqual(codes);
    // Rows in order, next to each other or a few apart: ranges read together.
    for (const picked of [ks.slice().reverse(), ks.filter((k) => k % 3 !== 1).reverse()]) {
      const again = decodePair(row, source(openPairFile(db(), row.file, row.bytes, 0)!));
      expect(again.rowsAt(picked)).toEqual({
        ids: picked.map((k) => idAt(all, k)),
        ref: picked.map((k) => all.refRowids[k]!),
        cand: picked.map((k) => all.candRowids[k]!),
      });
    }
    expect(Array.from(byRow.flags)).toEqual(Array.from(all.flags));
    expect(() => lazy.readRanges('flags', [[0, row.rows + 1]])).toThrow('outside');
    // One criterion's differences in chunks of a few rows, from either end, as the arrays hold them.
    const inChunks = decodePair(row, source(lazy), 16);
    for (const backwards of [false, true])
      all.criteria.forEach((_, c) => {
        const seen: number[] = [];
        inChunks.eachDelta(c, backwards, (deltas, from) => {
          expect(deltas.length).toBeLessThanOrEqual(4);
          seen.push(from, ...deltas);
        });
        const starts = Array.from({ length: Math.ceil(row.rows / 4) }, (_, i) => 4 * i);
        if (backwards) starts.reverse();
        const whole = all.deltas[c]!;
        expect(seen).toEqual(starts.flatMap((k) => [k, ...whole.subarray(k, k + 4)]));
      });
    expect(() => lazy.readEach('deltas', [[0, 17]], Buffer.alloc(16), () => {})).toThrow('outside');

    fs.rmSync(path.join(pairDir(db()), row.file));
    expect(lazy.read('classes')).toBeNull();
    expect(lazy.readRanges('example_ids', [[0, 1]])).toBeNull();
    // A small file was read whole when opened: the same bytes, whatever happens to it since.
    expect(whole.read('classes')).not.toBeNull();
    expectNotCached('lazy');
  });

  it('a view kept in memory is not served once its report is saved again or deleted', async () => {
    await library.store('kept');
    const first = openPair(db(), 'kept', 0);
    expect(page('kept').rows.length).toBe(library.ids.length);
    const changed = library.ids.map(() => ({ ...unchangedFlags, output_changed: true }));
    await library.store('kept', library.modelRows(changed));
    const again = openPair(db(), 'kept', 0);
    // Compared by identity: a deep comparison would read the old view's arrays, whose file is gone.
    expect(again === first).toBe(false);
    expect(Array.from(again.flags)).not.toEqual(Array.from(first.flags));
    const file = fileOf('kept');
    db().prepare(`DELETE FROM reports WHERE key = ?`).run('kept');
    fs.rmSync(path.join(pairDir(db()), file));
    expect(() => openPair(db(), 'kept', 0)).toThrow(NotFoundError);
  });

  it('a report saved again, pruned or cancelled leaves no file behind', async () => {
    await library.store('again');
    const first = fileOf('again');
    await library.store('again');
    expect(pairFiles()).not.toContain(first);
    expect(pairFiles()).toContain(fileOf('again'));

    const before = pairFiles();
    const cancelled = library.store('cancelled', undefined, () =>
      Promise.reject(new Error('cancelled')),
    );
    await expect(cancelled).rejects.toThrow('cancelled');
    let checkpoints = 0;
    const late = library.store('cancelled-late', undefined, () =>
      ++checkpoints === 3 ? Promise.reject(new Error('cancelled')) : Promise.resolve(),
    );
    await expect(late).rejects.toThrow('cancelled');
    expect(checkpoints).toBe(3);
    expect(pairFiles()).toEqual(before);

    for (let k = 0; k < 8; k++) await library.store(`pruned-${k}`);
    await pruneReports(db(), 'exp-test');
    const named = db().prepare(`SELECT file FROM pair_arrays ORDER BY file`).pluck().all();
    expect(pairFiles()).toEqual(named);
  });

  it('the sweep removes old files no row names (a crash before the commit), and only those', async () => {
    await library.store('swept');
    const dir = pairDir(db());
    const orphan = 'r999-p0-0123456789abcdef.pair';
    const temp = 'r999-p1-0123456789abcdef.pair.tmp';
    const foreign = 'notes.txt';
    const recent = 'r998-p0-0123456789abcdef.pair';
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    for (const name of [orphan, temp, foreign, recent]) fs.writeFileSync(path.join(dir, name), 'x');
    for (const name of [orphan, temp, foreign, fileOf('swept')])
      fs.utimesSync(path.join(dir, name), hourAgo, hourAgo);
    expect(sweepPairFiles(db())).toBe(2);
    expect(pairFiles()).toContain(foreign);
    expect(pairFiles()).not.toContain(orphan);
    expect(pairFiles()).not.toContain(temp);
    // Another process may be about to commit the row of a file it has just written.
    expect(pairFiles()).toContain(recent);
    expect(sweepPairFiles(db(), Date.now() + 60 * 60 * 1000)).toBe(1);
    expect(pairFiles()).not.toContain(recent);
    expect(page('swept').rows.length).toBe(library.ids.length);
    fs.rmSync(path.join(dir, foreign));
  });

  it('a read-only connection, or one reading a copy of the file in memory, reads the pair files', async () => {
    await library.store('read-only');
    const expected = page('read-only').rows;
    const reader = openDatabase(db().name, { readonly: true });
    try {
      expect(page('read-only', reader).rows).toEqual(expected);
      expect(sweepPairFiles(reader)).toBe(0);
    } finally {
      reader.close();
    }
    db().pragma('wal_checkpoint(TRUNCATE)');
    const image = fs.readFileSync(db().name);
    image[18] = 1;
    image[19] = 1;
    const copy = new Database(image, { readonly: true });
    try {
      setLibraryFile(copy, db().name);
      expect(page('read-only', copy).rows).toEqual(expected);
    } finally {
      copy.close();
    }
  });

  it('an in-memory library keeps its pair files in a temp folder of its own', () => {
    const a = new Database(':memory:');
    const b = new Database(':memory:');
    try {
      expect(pairDir(a)).not.toBe(pairDir(b));
      expect(pairDir(a)).toBe(pairDir(a));
      expect(fs.existsSync(pairDir(a))).toBe(true);
    } finally {
      a.close();
      b.close();
    }
  });
});
