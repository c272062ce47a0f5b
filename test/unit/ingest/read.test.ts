import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  describeFsError,
  firstInvalidUtf8,
  parseJson,
  parsePythonJson,
  readTextFile,
} from '../../../electron/core/ingest/read';
import { readJsonLines } from '../../../electron/core/ingest/json-lines';
import { countNonFinite } from '../../../electron/core/ingest/non-finite';
import { ImportProblem } from '../../../electron/core/ingest/types';
import { writeFile } from '../../fixtures/formats';
import { zstdFrame } from '../../fixtures/zstd';
import { tempDir } from '../../fixtures/tmp';
import { importProblemMessage } from '../../fixtures/import';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

function parseProblem(text: string, label?: string): string {
  try {
    parseJson(text, label);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportProblem);
    return (error as Error).message;
  }
  throw new Error('expected a problem');
}

describe('readTextFile', () => {
  it('strips a UTF-8 byte order mark', async () => {
    const file = writeFile(dir, 'bom.json', Buffer.from('\ufeff{"a":"é"}', 'utf8'));
    expect(await readTextFile(file)).toBe('{"a":"é"}');
  });

  it('names the offset of the first invalid UTF-8 byte', async () => {
    const file = writeFile(
      dir,
      'bad.json',
      Buffer.concat([Buffer.from('{"a":"ok'), Buffer.from([0xff]), Buffer.from('"}')]),
    );
    expect(await importProblemMessage(readTextFile(file))).toBe(
      'not valid UTF-8 text (first bad byte at offset 8)',
    );
  });

  it('rejects an empty file', async () => {
    expect(await importProblemMessage(readTextFile(writeFile(dir, 'empty.json', '')))).toBe(
      'the file is empty',
    );
  });

  it('rejects binary data by the NUL bytes in its first 8 KB', async () => {
    const file = writeFile(
      dir,
      'results_2026-01-01T00-00-00.json',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]),
    );
    expect(await importProblemMessage(readTextFile(file))).toBe('binary data, not a text run file');
  });

  it('says when a file is UTF-16 rather than UTF-8', async () => {
    const file = writeFile(dir, 'u16.json', Buffer.from('\ufeff{}', 'utf16le'));
    expect(await importProblemMessage(readTextFile(file))).toMatch(/UTF-16 text; save it as UTF-8/);
  });

  it('enforces the size cap with both sizes in the message', async () => {
    const file = writeFile(dir, 'big.json', 'x'.repeat(3000));
    expect(await importProblemMessage(readTextFile(file, { maxBytes: 2048 }))).toBe(
      'the file is 2.9 KB, over the 2 KB limit for one file; write the run as several smaller files and index again',
    );
  });

  it('explains a missing file and a folder', async () => {
    expect(await importProblemMessage(readTextFile(path.join(dir, 'gone.json')))).toMatch(
      /no longer exists/,
    );
    expect(await importProblemMessage(readTextFile(dir))).toMatch(/folder, not a file/);
  });

  // We run as root, so chmod 000 cannot make a real EACCES; the mapping is tested directly.
  it('maps permission errors to a sentence a person can act on', () => {
    const eacces = Object.assign(new Error("EACCES: permission denied, open '/x'"), {
      code: 'EACCES',
    });
    expect(describeFsError(eacces)).toMatch(/^permission denied: .*check the permissions/);
    expect(describeFsError(Object.assign(new Error('x'), { code: 'EPERM' }))).toMatch(
      /^permission denied/,
    );
  });
});

describe('firstInvalidUtf8', () => {
  it('finds overlong forms, surrogates and cut-off sequences', () => {
    expect(firstInvalidUtf8(Buffer.from('plain ascii é ✓ 🧣'))).toBe(-1);
    expect(firstInvalidUtf8(Uint8Array.of(0x61, 0xc0, 0x80))).toBe(1);
    expect(firstInvalidUtf8(Uint8Array.of(0x61, 0x62, 0xed, 0xa0, 0x80))).toBe(2);
    expect(firstInvalidUtf8(Uint8Array.of(0x61, 0xe2, 0x9c))).toBe(1);
  });
});

describe('parseJson', () => {
  it('gives line and column of a truncated file and says it may still be being written', () => {
    const lines = Array.from({ length: 1203 }, (_, i) => `  {"i": ${i}},`);
    const text = `[\n${lines.join('\n')}\n  {"i": `;
    expect(parseProblem(text)).toBe(
      'line 1,205, column 9: unexpected end of JSON — the file may still be being written',
    );
  });

  it('names the line of NaN and Infinity tokens', () => {
    expect(parseProblem('{\n"a": 1,\n"b": NaN\n}')).toBe(
      'NaN is not valid JSON (line 3); the producer wrote a non-finite number',
    );
    expect(parseProblem('[1, Infinity]')).toMatch(/^Infinity is not valid JSON \(line 1\)/);
    expect(parseProblem('{"x": -Infinity}')).toMatch(/^-Infinity is not valid JSON \(line 1\)/);
  });

  it("reads Python's NaN and Infinity as numbers when asked, but never inside strings", () => {
    const value = parsePythonJson(
      '{"a": NaN, "b": [Infinity, -Infinity], "c": "NaN, Infinity", "d": "say \\"NaN\\"", "e": 1e309}',
    ) as Record<string, unknown>;
    expect(value.a).toBeNaN();
    expect(value.b).toEqual([Infinity, -Infinity]);
    expect(value.c).toBe('NaN, Infinity');
    expect(value.d).toBe('say "NaN"');
    // 1e309 overflows to Infinity in JSON.parse itself; it is counted like the words.
    expect(countNonFinite(value)).toBe(4);
    expect(countNonFinite(parsePythonJson('{"x": [1, 2.5, "Infinity"]}'))).toBe(0);
  });

  it('still names the line of a real error in a file that also holds NaN', () => {
    expect(() => parsePythonJson('{\n"a": NaN,\n"b": Infinity,\n"c": nope\n}')).toThrow(
      "line 4, column 6: unexpected 'nope'",
    );
  });

  it('rejects absurd nesting, closed or not', () => {
    expect(parseProblem('['.repeat(100_000))).toMatch(/nested more than 512 levels deep/);
    expect(parseProblem('['.repeat(100_000) + ']'.repeat(100_000))).toBe(
      'nested more than 512 levels deep',
    );
    expect(() => parseJson('['.repeat(512) + ']'.repeat(512))).not.toThrow();
    expect(parseProblem('{"a":'.repeat(513) + '1' + '}'.repeat(513))).toMatch(
      /nested more than 512/,
    );
  });

  it('finds the one too-deep nest wherever it sits, past shallow siblings', () => {
    const deep = (levels: number) => '{"a":['.repeat(levels / 2) + '1' + ']}'.repeat(levels / 2);
    // The document itself is level 1: a list of 512 in its last item is 513 deep.
    const doc = (levels: number) => `[1, {"x": [2]}, "[[[", ${deep(levels)}]`;
    expect(() => parseJson(doc(510))).not.toThrow();
    expect(parseProblem(doc(512))).toBe('nested more than 512 levels deep');
    expect(parseProblem(doc(600), 'run.json')).toBe('run.json: nested more than 512 levels deep');
  });

  it('counts non-finite numbers at any depth and in any container', () => {
    expect(countNonFinite(NaN)).toBe(1);
    expect(countNonFinite(1)).toBe(0);
    expect(countNonFinite(null)).toBe(0);
    expect(countNonFinite('NaN')).toBe(0);
    const nested = [Infinity, { a: [1, [-Infinity, { b: NaN }]], c: null, d: 'x', e: true }, 2.5];
    expect(countNonFinite(nested)).toBe(3);
    expect(
      countNonFinite({ deep: JSON.parse('[['.repeat(200) + '1e400' + ']]'.repeat(200)) }),
    ).toBe(1);
  });

  it('describes other syntax errors with a position', () => {
    expect(parseProblem('{"a": 1,}')).toBe(
      "line 1, column 9: expected a double-quoted property name, found '}'",
    );
    expect(parseProblem('{"a": 1} x')).toBe(
      "line 1, column 10: unexpected 'x' after the end of the JSON value",
    );
    expect(parseProblem('{"a": "\u0001"}')).toMatch(
      /column 8: a raw control character \(U\+0001\)/,
    );
    expect(parseProblem(' \n ')).toBe('the file contains only whitespace, no JSON');
    expect(parseProblem('{"a": tru}', 'header.json')).toBe(
      "header.json: line 1, column 7: unexpected 'tru'",
    );
  });
});

describe('readJsonLines', () => {
  it('reads NaN and Infinity on lines only when asked', async () => {
    const file = writeFile(
      dir,
      'python.jsonl',
      '{"a": 1}\n{"a": NaN, "s": "NaN"}\n{"a": -Infinity}\n',
    );
    const seen: unknown[] = [];
    await readJsonLines(file, (value) => seen.push(value), { nonFinite: true });
    expect(seen).toEqual([{ a: 1 }, { a: NaN, s: 'NaN' }, { a: -Infinity }]);
    await expect(readJsonLines(file, () => undefined)).rejects.toThrow(
      'NaN is not valid JSON (line 2)',
    );
  });

  const collect = async (file: string) => {
    const seen: [unknown, number][] = [];
    const result = await readJsonLines(file, (value, lineNo) => seen.push([value, lineNo]));
    return { seen, ...result };
  };

  it('reads records, skipping blank lines and handling CRLF', async () => {
    const file = writeFile(dir, 'a.jsonl', '{"a":1}\r\n\n   \n{"a":2}\r\n');
    const { seen, lines, warnings } = await collect(file);
    expect(seen).toEqual([
      [{ a: 1 }, 1],
      [{ a: 2 }, 4],
    ]);
    expect(lines).toBe(2);
    expect(warnings).toEqual([]);
  });

  it('keeps a last line without a newline when it parses', async () => {
    const { seen, warnings } = await collect(writeFile(dir, 'a.jsonl', '{"a":1}\n{"a":2}'));
    expect(seen.map(([v]) => v)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(warnings).toEqual([]);
  });

  it('turns a half-written last line into a warning', async () => {
    const { seen, warnings } = await collect(
      writeFile(dir, 'a.jsonl', '{"a":1}\n{"a":2}\n{"a":3,"b":"hal'),
    );
    expect(seen).toHaveLength(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^line 3, the last line, was skipped: .*still being written/);
  });

  it('fails on a bad line in the middle, naming it', async () => {
    const file = writeFile(dir, 'a.jsonl', '{"a":1}\n{"a":\n{"a":3}\n');
    expect(await importProblemMessage(collect(file))).toBe(
      'line 2, column 6: unexpected end of JSON',
    );
    const nan = writeFile(dir, 'b.jsonl', '{"a":1}\n{"a":NaN}\n{"a":3}\n');
    expect(await importProblemMessage(collect(nan))).toBe(
      'NaN is not valid JSON (line 2); the producer wrote a non-finite number',
    );
  });

  it('fails on invalid UTF-8 in the middle', async () => {
    const file = writeFile(
      dir,
      'a.jsonl',
      Buffer.concat([Buffer.from('{"a":"'), Uint8Array.of(0xfe), Buffer.from('"}\n{"a":2}\n')]),
    );
    expect(await importProblemMessage(collect(file))).toMatch(/^line 1 is not valid UTF-8 text/);
  });

  it('rejects an empty file and a too-deep record', async () => {
    expect(await importProblemMessage(collect(writeFile(dir, 'e.jsonl', '')))).toBe(
      'the file is empty',
    );
    const deep = writeFile(dir, 'd.jsonl', `{"a":1}\n${'['.repeat(600)}${']'.repeat(600)}\n`);
    expect(await importProblemMessage(collect(deep))).toBe(
      'line 2: nested more than 512 levels deep',
    );
  });

  it('decompresses .zst streams, across block boundaries', async () => {
    const text =
      Array.from({ length: 5000 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(i % 50) })).join(
        '\n',
      ) + '\n';
    const file = writeFile(
      dir,
      'events.jsonl.zst',
      zstdFrame(Buffer.from(text), { blockSize: 1000 }),
    );
    const { seen, warnings } = await collect(file);
    expect(seen).toHaveLength(5000);
    expect(seen[4999]).toEqual([{ i: 4999, pad: 'x'.repeat(4999 % 50) }, 5000]);
    expect(warnings).toEqual([]);
  });

  it('warns on a cut-off .zst stream and fails on a damaged one', async () => {
    const frame = zstdFrame(Buffer.from('{"a":1}\n{"a":2}\n{"a":3}\n'), { blockSize: 8 });
    const cut = writeFile(dir, 'cut.jsonl.zst', frame.subarray(0, frame.length - 10));
    const { seen, warnings } = await collect(cut);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(warnings.join('\n')).toMatch(/zstd stream ends early/);
    const damaged = writeFile(dir, 'bad.jsonl.zst', Buffer.from('this is not zstd at all\n'));
    expect(await importProblemMessage(collect(damaged))).toMatch(/zstd-compressed data is damaged/);
  });

  it('stops when aborted, without calling it a problem', async () => {
    const file = writeFile(dir, 'a.jsonl', '{"a":1}\n');
    const controller = new AbortController();
    controller.abort();
    const error = await readJsonLines(file, () => undefined, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(error).not.toBeInstanceOf(ImportProblem);
    expect((error as Error).name).toBe('AbortError');
  });

  it('reads a missing file as a problem', async () => {
    expect(await importProblemMessage(collect(path.join(dir, 'none.jsonl')))).toMatch(
      /no longer exists/,
    );
    expect(fs.existsSync(path.join(dir, 'none.jsonl'))).toBe(false);
  });
});
