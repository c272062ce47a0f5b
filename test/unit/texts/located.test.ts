import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sha1, sortedJson } from '../../../electron/core/ingest/prepare';
import { decodeStoredBlock } from '../../../electron/core/texts/blocks';
import {
  decodeLocatedBlock,
  encodeLocatedBlock,
  encodeSourceBlock,
  SourceFiles,
  type LocatedInput,
  type SourceStamp,
} from '../../../electron/core/texts/located';
import { TextLocator } from '../../../electron/core/texts/locate';
import {
  asStored,
  locatedExamples,
  writeMechlensLike,
  type LocatedExample,
} from '../../fixtures/located';
import { tempDir } from '../../fixtures/tmp';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir('pairwise-located-')));
afterEach(() => {
  vi.restoreAllMocks();
  tmp.cleanup();
});

/** What the indexer would hand over for the examples written to `file`. */
function indexed(
  file: string,
  written: LocatedExample[],
): { stamp: SourceStamp; rows: LocatedInput[] } {
  const stat = fs.statSync(file);
  const list = asStored(written);
  const located = new TextLocator().locate(fs.readFileSync(file), 0, list);
  const rows = list.map((e, i) => ({
    input: e.input,
    output: e.output,
    fields: sortedJson(e.fields as never),
    target: i % 2 ? `target ${i}` : null,
    error: i % 5 ? null : 'boom',
    located: located[i]!,
    inputHash: sha1(e.input),
    outputHash: sha1(e.output),
  }));
  return { stamp: { path: file, size: stat.size, mtimeMs: stat.mtimeMs }, rows };
}

function expected(rows: LocatedInput[]) {
  return rows.map((r) => ({
    input: r.input,
    output: r.output,
    fields: JSON.parse(r.fields) as unknown,
    target: r.target,
    error: r.error,
    unavailable: null,
  }));
}

describe('located blocks', () => {
  it('read back the indexed texts from the source, in one read for a block', () => {
    const file = path.join(tmp.dir, 'run.json');
    const list = locatedExamples(200);
    writeMechlensLike(file, list, 'python', 2);
    const { stamp, rows } = indexed(file, list);
    expect(rows.filter((r) => r.located.input && r.located.output).length).toBeGreaterThan(100);
    const data = encodeLocatedBlock(stamp, rows);
    const reads = vi.spyOn(fs, 'readSync');
    expect(decodeLocatedBlock(data, new SourceFiles())).toEqual(expected(rows));
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('read ranges far apart separately, not the bytes between them', () => {
    const file = path.join(tmp.dir, 'run.json');
    const list = locatedExamples(12);
    list[5]!.fields = { blob: 'x'.repeat(2_000_000) };
    writeMechlensLike(file, list, 'js');
    const { stamp, rows } = indexed(file, list);
    const reads = vi.spyOn(fs, 'readSync');
    expect(decodeLocatedBlock(encodeLocatedBlock(stamp, rows), new SourceFiles())).toEqual(
      expected(rows),
    );
    expect(reads).toHaveBeenCalledTimes(2);
    expect(reads.mock.calls.every((call) => ((call as unknown[])[3] as number) < 100_000)).toBe(
      true,
    );
  });

  it('are chosen only for a local file in which some text was found', () => {
    const file = path.join(tmp.dir, 'run.json');
    const list = locatedExamples(10);
    writeMechlensLike(file, list, 'js');
    const { stamp, rows } = indexed(file, list);
    expect(encodeSourceBlock(stamp, rows).encoding).toBe('located');
    const asJson = encodeSourceBlock(null, rows);
    expect(asJson.encoding).toBe('json');
    const fromJson = decodeStoredBlock('json', asJson.data);
    expect(fromJson.map((row) => ({ ...row, unavailable: null }))).toEqual(expected(rows));
    const missed = rows.map((r) => ({ ...r, located: { input: null, output: null } }));
    expect(encodeSourceBlock(stamp, missed).encoding).toBe('json');
  });

  it('say source-changed when the file has the same size but another mtime', () => {
    const file = path.join(tmp.dir, 'run.json');
    const list = locatedExamples(20);
    writeMechlensLike(file, list, 'js');
    const { stamp, rows } = indexed(file, list);
    const data = encodeLocatedBlock(stamp, rows);
    fs.utimesSync(file, new Date(), new Date(Date.now() + 60_000));
    const read = decodeLocatedBlock(data, new SourceFiles());
    for (const [i, row] of read.entries()) {
      const located = rows[i]!.located.input || rows[i]!.located.output;
      expect(row.unavailable).toBe(located ? 'source-changed' : null);
      if (located) expect([row.input, row.output]).toEqual(['', '']);
      else expect(row.input).toBe(rows[i]!.input);
      expect(row.fields).toEqual(JSON.parse(rows[i]!.fields));
    }
  });

  it('say source-changed for the texts whose bytes changed under the same size and mtime', () => {
    const file = path.join(tmp.dir, 'run.json');
    const list = locatedExamples(20);
    writeMechlensLike(file, list, 'js');
    // A whole second, which utimes sets back exactly (a stat's mtime has sub-ms digits).
    const second = 1_700_000_000;
    fs.utimesSync(file, second, second);
    const { stamp, rows } = indexed(file, list);
    const data = encodeLocatedBlock(stamp, rows);
    const target = rows[4]!.located.output!;
    const bytes = fs.readFileSync(file);
    // One letter of the fifth output, replaced by another: same size, still valid JSON.
    const at = bytes.indexOf('a', target.start);
    bytes[at] = 'b'.charCodeAt(0);
    fs.writeFileSync(file, bytes);
    fs.utimesSync(file, second, second);
    expect(fs.statSync(file).mtimeMs).toBe(stamp.mtimeMs);
    const read = decodeLocatedBlock(data, new SourceFiles());
    expect(at).toBeLessThan(target.end);
    expect(read[4]).toMatchObject({ input: '', output: '', unavailable: 'source-changed' });
    expect(read.filter((r) => r.unavailable !== null)).toHaveLength(1);
    expect(read[5]).toEqual(expected(rows)[5]);
  });

  it('say source-changed for a lone surrogate edited in where U+FFFD was (same SHA-1)', () => {
    const file = path.join(tmp.dir, 'run.json');
    const list = locatedExamples(3);
    list[1]!.output = `a replacement character \ufffd ${list[1]!.output}`;
    writeMechlensLike(file, list, 'python');
    const second = 1_700_000_000;
    fs.utimesSync(file, second, second);
    const { stamp, rows } = indexed(file, list);
    const data = encodeLocatedBlock(stamp, rows);
    expect(rows[1]!.located.output).not.toBeNull();
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('\\ufffd', '\\ud800'));
    fs.utimesSync(file, second, second);
    const read = decodeLocatedBlock(data, new SourceFiles());
    expect(read[1]).toMatchObject({ input: '', output: '', unavailable: 'source-changed' });
    expect(read[2]).toEqual(expected(rows)[2]);
  });

  it('say source-missing when the file is gone, keeping inline texts', () => {
    const file = path.join(tmp.dir, 'run.json');
    const list = locatedExamples(20);
    list[0]!.input = 'short';
    list[0]!.output = 'also short';
    writeMechlensLike(file, list, 'js');
    const { stamp, rows } = indexed(file, list);
    const data = encodeLocatedBlock(stamp, rows);
    fs.rmSync(file);
    const read = decodeLocatedBlock(data, new SourceFiles());
    expect(read[0]).toEqual(expected(rows)[0]);
    expect(read.slice(1).every((r) => r.unavailable === 'source-missing')).toBe(true);
  });

  it('stat a file once per reader', () => {
    const file = path.join(tmp.dir, 'run.json');
    const list = locatedExamples(20);
    writeMechlensLike(file, list, 'js');
    const { stamp, rows } = indexed(file, list);
    const data = encodeLocatedBlock(stamp, rows);
    const stats = vi.spyOn(fs, 'statSync');
    const files = new SourceFiles();
    decodeLocatedBlock(data, files);
    decodeLocatedBlock(data, files);
    expect(stats).toHaveBeenCalledTimes(1);
  });
});
