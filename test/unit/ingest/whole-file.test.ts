import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256FileBytes, sha256Files } from '../../../electron/core/ingest/hash';
import { importUnitFile } from '../../../electron/core/ingest/import-task';
import { locateRuns } from '../../../electron/core/ingest/locate-runs';
import { prepareExamples } from '../../../electron/core/ingest/prepare';
import {
  readToEnd,
  readWholeFile,
  REUSED_MAX_BYTES,
} from '../../../electron/core/ingest/whole-file';
import { examples, writeFile, writeMechlensRun } from '../../fixtures/formats';
import { tempDir } from '../../fixtures/tmp';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

function folder(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

/** A long text whose bytes differ from place to place, so stale bytes would show. */
const filler = (length: number, seed: string) =>
  Array.from({ length: Math.ceil(length / 16) }, (_, i) => `${seed}${i}`.padEnd(16, '.'))
    .join('')
    .slice(0, length);

describe('a file read whole into the reused buffer', () => {
  it('holds only its own bytes after a longer file, and hashes as the file on disk', async () => {
    const dir = folder();
    const long = writeFile(dir, 'long.json', filler(300_000, 'long'));
    const short = writeFile(dir, 'short.json', filler(1_000, 'short'));
    const first = readWholeFile(long);
    expect(first.bytes.equals(fs.readFileSync(long))).toBe(true);
    first.release();
    const second = readWholeFile(short);
    expect(second.bytes.length).toBe(1_000);
    expect(second.bytes.equals(fs.readFileSync(short))).toBe(true);
    expect(sha256FileBytes(short, second.bytes)).toBe(await sha256Files([short]));
    second.release();
  });

  it('is lent to one reader at a time: a second reader meanwhile gets bytes of its own', () => {
    const dir = folder();
    const a = writeFile(dir, 'a.json', filler(5_000, 'a'));
    const b = writeFile(dir, 'b.json', filler(4_000, 'b'));
    const first = readWholeFile(a);
    const second = readWholeFile(b);
    expect(second.bytes.buffer).not.toBe(first.bytes.buffer);
    expect(first.bytes.equals(fs.readFileSync(a))).toBe(true);
    expect(second.bytes.equals(fs.readFileSync(b))).toBe(true);
    second.release();
    first.release();
    const third = readWholeFile(b);
    // A reader that releases twice gives back a buffer that is no longer its own only once.
    first.release();
    const fourth = readWholeFile(a);
    expect(fourth.bytes.buffer).not.toBe(third.bytes.buffer);
    expect(third.bytes.equals(fs.readFileSync(b))).toBe(true);
    third.release();
    fourth.release();
  });

  it('reads a file larger than the reused buffer may grow to into memory of its own', () => {
    const dir = folder();
    const big = writeFile(dir, 'big.json', filler(REUSED_MAX_BYTES + 10, 'big'));
    const read = readWholeFile(big);
    expect(read.bytes.equals(fs.readFileSync(big))).toBe(true);
    read.release();
  });

  it('grows the buffer while reading when the file holds more than it was sized for', () => {
    const dir = folder();
    const file = writeFile(dir, 'grown.json', filler(10_000, 'grown'));
    const fd = fs.openSync(file, 'r');
    try {
      const read = readToEnd(fd, Buffer.alloc(100));
      expect(read.buffer.length).toBeGreaterThanOrEqual(10_000);
      expect(read.buffer.subarray(0, read.length).equals(fs.readFileSync(file))).toBe(true);
    } finally {
      fs.closeSync(fd);
    }
  });
});

describe('run files imported one after another in one thread', () => {
  it('store what fresh reads give, a long file then a short one, or both at once', async () => {
    const dir = folder();
    const long = examples(40).map((e, i) => ({ ...e, input: filler(400, `in-${i}-`) }));
    const short = examples(3).map((e, i) => ({ ...e, output: filler(120, `out-${i}-`) }));
    const files = [
      writeMechlensRun(dir, { id: 'run-long', examples: long }),
      writeMechlensRun(dir, { id: 'run-short', examples: short }),
    ];
    const signal = new AbortController().signal;
    const one = (file: string) =>
      importUnitFile({ unit: { path: file, kind: 'file', files: [file] } }, signal);
    const results = await Promise.all(files.map(one));
    for (const file of [...files, ...files]) results.push(await one(file));
    results.forEach((result, i) => {
      const file = files[i % 2]!;
      if (result.status !== 'imported') throw new Error(`${file} was not imported`);
      const bytes = fs.readFileSync(file);
      expect(result.sha256).toBe(sha256FileBytes(file, bytes));
      const { size, mtimeMs } = result.stat;
      const fresh = locateRuns(result.runs, () => ({
        bytes,
        stamp: { path: file, size, mtimeMs },
      })).map(([run, located]) => prepareExamples(run, located));
      expect(result.prepared).toEqual(fresh);
      expect(result.prepared[0]!.blocks.map((b) => b.encoding)).toContain('located');
    });
  });
});
