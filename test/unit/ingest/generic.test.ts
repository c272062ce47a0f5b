import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  csvValue,
  importGenericCsv,
  importGenericJsonl,
  looksLikeGenericCsv,
  looksLikeGenericJsonl,
} from '../../../electron/core/ingest/importers/generic';
import { parseCsv } from '../../../electron/core/ingest/importers/csv-rows';
import { writeFile, writeGenericCsv, writeGenericJsonl } from '../../fixtures/formats';
import { tempDir } from '../../fixtures/tmp';
import { importContext, importProblemMessage } from '../../fixtures/import';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

describe('sniffing', () => {
  it('needs an id and an input or output', () => {
    expect(looksLikeGenericJsonl('{"id": "a", "output": "x", "score": 1}')).toBe(true);
    expect(looksLikeGenericJsonl('{"id": "a", "text": "x"}')).toBe(false);
    expect(looksLikeGenericJsonl('{"doc_id": 0, "input": "x"}')).toBe(false);
    expect(
      looksLikeGenericJsonl('{"id": "a", "input": "a very long line cut off by the sniff'),
    ).toBe(true);
    expect(looksLikeGenericCsv('ID, Input ,score')).toBe(true);
    expect(looksLikeGenericCsv('record_id,input,output')).toBe(false);
    expect(looksLikeGenericCsv('"id","output"')).toBe(true);
  });
});

describe('parseCsv', () => {
  it("drops a BOM and reads CR, LF and CRLF rows alike, with each row's first line", () => {
    expect(parseCsv('\ufeffid,input\n\n\n1,x\r2,"y\nz"\r\n3,w')).toEqual([
      { cells: ['id', 'input'], line: 1 },
      { cells: ['1', 'x'], line: 4 },
      { cells: ['2', 'y\nz'], line: 5 },
      { cells: ['3', 'w'], line: 7 },
    ]);
  });

  it('follows RFC 4180: quotes, doubled quotes, newlines in cells, CRLF', () => {
    const rows = parseCsv('id,input\r\n1,"a, ""quoted""\nsecond line"\r\n\r\n2,plain\n');
    expect(rows).toEqual([
      { cells: ['id', 'input'], line: 1 },
      { cells: ['1', 'a, "quoted"\nsecond line'], line: 2 },
      { cells: ['2', 'plain'], line: 5 },
    ]);
  });

  it('reports a quote that is never closed', () => {
    expect(() => parseCsv('id,input\n1,"open\n2,x\n')).toThrow(
      /^line \d+: a quoted cell is never closed \(the file ends inside it\)$/,
    );
  });

  it('types cells the way a spreadsheet user means them', () => {
    expect(csvValue('')).toBeNull();
    expect(csvValue('TRUE')).toBe(true);
    expect(csvValue('false')).toBe(false);
    expect(csvValue('-1.5e3')).toBe(-1500);
    expect(csvValue('007')).toBe('007');
    expect(csvValue('12345678901234567890')).toBe('12345678901234567890');
    expect(csvValue('NaN')).toBe('NaN');
  });
});

describe('importGenericJsonl', () => {
  it('makes one example per line with every other key as a field, and path-based defaults', async () => {
    const file = writeGenericJsonl(path.join(dir, 'evals'), 'baseline.jsonl', [
      { id: 'a', input: 'q1', output: 'r1', correct: true, score: 0.5 },
      { id: 7, input: [{ role: 'user', content: 'hi' }], output: null },
    ]);
    const run = await importGenericJsonl(file, importContext());
    expect(run).toMatchObject({
      format: 'jsonl',
      project: 'evals',
      experiment: null,
      condition: { name: 'baseline', role: null },
    });
    expect(run.runId).toMatch(/^[0-9a-f]{32}$/);
    expect(run.examples).toEqual([
      {
        id: 'a',
        input: 'q1',
        output: 'r1',
        fields: { correct: true, score: 0.5 },
        target: null,
        error: null,
      },
      {
        id: '7',
        input: '[{"role":"user","content":"hi"}]',
        output: '',
        fields: {},
        target: null,
        error: null,
      },
    ]);
  });

  it('takes run metadata from pairwise.json, with per-file overrides', async () => {
    const sidecar = {
      project: 'refusals',
      experiment: { id: 'exp-g', name: 'Steering', question: 'Does it help?', claim: 'Yes' },
      model: { id: 'org/m', revision: 'r1' },
      config: { seed: 3 },
      metric_definitions: {
        correct_rate: { example_field: 'correct', direction: 'higher_is_better' },
      },
      metrics: { correct_rate: 1 },
      files: {
        'steered.jsonl': {
          condition: 'steer-4',
          role: 'intervention',
          expect: { correct_rate: 'increase' },
        },
      },
    };
    const file = writeGenericJsonl(
      dir,
      'steered.jsonl',
      [{ id: 'a', output: 'x', correct: true }],
      sidecar,
    );
    const run = await importGenericJsonl(file, importContext());
    expect(run).toMatchObject({
      project: 'refusals',
      experiment: {
        id: 'exp-g',
        name: 'Steering',
        question: 'Does it help?',
        claim: 'Yes',
        deviations: [],
      },
      condition: { name: 'steer-4', role: 'intervention', expect: { correct_rate: 'increase' } },
      seed: 3,
      metrics: { correct_rate: 1 },
      metricDefinitions: { correct_rate: { example_field: 'correct' } },
    });
    expect(run.settings.model).toEqual({ id: 'org/m', revision: 'r1' });
  });

  it('makes each pass/fail field of a file that declares no metrics a metric of its own', async () => {
    const rows = [
      { id: 'a', output: 'x', correct: true, grade: 'pass', score: 3, note: 'ok', tags: ['t'] },
      { id: 'b', output: 'y', correct: false, grade: 'FAIL', score: 1, note: null, tags: [] },
    ];
    const plain = await importGenericJsonl(
      writeGenericJsonl(dir, 'plain.jsonl', rows),
      importContext(),
    );
    expect(plain.metricDefinitions).toEqual({
      correct: {
        description:
          'Share of examples with a pass in correct (not declared in the file: derived from its pass/fail values).',
        example_field: 'correct',
        direction: 'higher_is_better',
      },
      grade: {
        description:
          'Share of examples with a pass in grade (not declared in the file: derived from its pass/fail values).',
        example_field: 'grade',
        direction: 'higher_is_better',
      },
    });
    // Declared metrics are the whole list: nothing is derived beside them.
    const declared = await importGenericJsonl(
      writeGenericJsonl(path.join(dir, 'declared'), 'run.jsonl', rows, {
        metric_definitions: { mean_score: { example_field: 'score' } },
      }),
      importContext(),
    );
    expect(declared.metricDefinitions).toEqual({ mean_score: { example_field: 'score' } });
  });

  it('rejects a broken or misspelt sidecar', async () => {
    const file = writeGenericJsonl(dir, 'a.jsonl', [{ id: 'a', output: 'x' }], {
      experiement: { id: 'x' },
    });
    expect(await importProblemMessage(importGenericJsonl(file, importContext()))).toMatch(
      /^pairwise.json is not valid: .*experiement/,
    );
    writeFile(dir, 'pairwise.json', '{"role": "referee"}');
    expect(await importProblemMessage(importGenericJsonl(file, importContext()))).toMatch(
      /^pairwise.json is not valid at "role"/,
    );
    writeFile(dir, 'pairwise.json', '{"project": ');
    expect(await importProblemMessage(importGenericJsonl(file, importContext()))).toMatch(
      /^pairwise.json: line 1, column 13: unexpected end/,
    );
  });

  it('rejects duplicate ids, bad ids and non-object lines with their line numbers', async () => {
    const dup = writeGenericJsonl(dir, 'dup.jsonl', [
      { id: 'a', output: '' },
      { id: 'b', output: '' },
      { id: 'a', output: '' },
    ]);
    expect(await importProblemMessage(importGenericJsonl(dup, importContext()))).toBe(
      'duplicate example id "a" (lines 1 and 3)',
    );
    const bad = writeGenericJsonl(dir, 'bad.jsonl', [
      { id: 'a', output: '' },
      { id: 1.5, output: '' },
    ]);
    expect(await importProblemMessage(importGenericJsonl(bad, importContext()))).toBe(
      'line 2: "id" should be a non-empty string or an integer, but it is a number (1.5)',
    );
    const list = writeGenericJsonl(dir, 'list.jsonl', [[1, 2]]);
    expect(await importProblemMessage(importGenericJsonl(list, importContext()))).toBe(
      'line 1: expected a JSON object, found a list',
    );
  });

  it('keeps the lines before a half-written last line, with a warning', async () => {
    const file = writeFile(dir, 'live.jsonl', '{"id":"a","output":"x"}\n{"id":"b","outp');
    const run = await importGenericJsonl(file, importContext());
    expect(run.examples.map((e) => e.id)).toEqual(['a']);
    expect(run.warnings[0]).toMatch(/last line, was skipped/);
  });
});

describe('importGenericCsv', () => {
  it('reads typed fields and ignores an unnamed index column', async () => {
    const file = writeGenericCsv(
      dir,
      'run.csv',
      '\ufeff,ID,Input,Output,correct,score,note\n0,a,"q, 1",r1,true,0.5,\n1,b,q2,"multi\nline",FALSE,3,007\n',
    );
    const run = await importGenericCsv(file, importContext());
    expect(run.format).toBe('csv');
    expect(run.condition.name).toBe('run');
    expect(run.warnings).toEqual(['column 1 has no header name and was ignored']);
    expect(run.examples).toEqual([
      {
        id: 'a',
        input: 'q, 1',
        output: 'r1',
        fields: { correct: true, score: 0.5, note: null },
        target: null,
        error: null,
      },
      {
        id: 'b',
        input: 'q2',
        output: 'multi\nline',
        fields: { correct: false, score: 3, note: '007' },
        target: null,
        error: null,
      },
    ]);
  });

  it('rejects ragged rows, empty ids, duplicate ids and duplicate columns', async () => {
    const ragged = writeGenericCsv(dir, 'r.csv', 'id,output\na,x\nb,y,z\n');
    expect(await importProblemMessage(importGenericCsv(ragged, importContext()))).toBe(
      'line 3 has 3 cells but the header has 2 columns',
    );
    const empty = writeGenericCsv(dir, 'e.csv', 'id,output\n,x\n');
    expect(await importProblemMessage(importGenericCsv(empty, importContext()))).toBe(
      'line 2: the id cell is empty',
    );
    const dup = writeGenericCsv(dir, 'd.csv', 'id,output\na,x\nb,y\na,z\n');
    expect(await importProblemMessage(importGenericCsv(dup, importContext()))).toBe(
      'duplicate example id "a" (lines 2 and 4)',
    );
    const cols = writeGenericCsv(dir, 'c.csv', 'id,output,score,score\na,x,1,2\n');
    expect(await importProblemMessage(importGenericCsv(cols, importContext()))).toBe(
      'the header names the column "score" twice',
    );
  });
});

describe('importGenericCsv, streamed', () => {
  it('refuses bad UTF-8 and names a missing file instead of reading it whole', async () => {
    const file = path.join(dir, 'bad.csv');
    fs.writeFileSync(
      file,
      Buffer.concat([Buffer.from('id,input\n1,caf'), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]),
    );
    await expect(importGenericCsv(file, { signal: new AbortController().signal })).rejects.toThrow(
      /not valid UTF-8 text \(first bad byte near offset 1[45]\)/,
    );
    await expect(
      importGenericCsv(path.join(dir, 'gone.csv'), { signal: new AbortController().signal }),
    ).rejects.toThrow(/no longer exists/);
  });

  it('stops on cancel', async () => {
    const file = writeGenericCsv(dir, 'run.csv', 'id,input,output\na,x,y\n');
    const controller = new AbortController();
    controller.abort();
    await expect(importGenericCsv(file, { signal: controller.signal })).rejects.toThrow(/abort/i);
  });
});
