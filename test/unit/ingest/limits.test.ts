import { describe, expect, it } from 'vitest';
import { importMechlens } from '../../../electron/core/ingest/importers/mechlens';
import {
  checkImportedRuns,
  MAX_EXAMPLES_PER_RUN,
  wellFormed,
} from '../../../electron/core/ingest/limits';
import { countJsonValues, MAX_JSON_VALUES, parseJson } from '../../../electron/core/ingest/read';
import { ImportProblem } from '../../../electron/core/ingest/types';
import type { ImportedExample } from '../../../shared/model';
import { mechlensRecord } from '../../fixtures/formats';

const src = { path: '/lib/.mechlens/runs/x.json', mtimeMs: 0 };

function run(examples: Partial<ImportedExample>[]) {
  const imported = importMechlens(mechlensRecord({ examples: [] }), src);
  imported.examples = examples.map((e, i) => ({
    id: `e${i}`,
    input: '',
    output: '',
    fields: {},
    target: null,
    error: null,
    ...e,
  }));
  return imported;
}

describe('per-run limits and stored text', () => {
  it('refuses a run with more examples than the limit before building any of them', () => {
    // A sparse list: its length is what counts, so this costs no memory.
    const record = mechlensRecord();
    record.examples = new Array(MAX_EXAMPLES_PER_RUN + 1);
    expect(() => importMechlens(record, src)).toThrow(
      /holds 2,000,001 examples, over the limit of 2,000,000 per run.*several smaller runs/,
    );
  });

  it('replaces lone surrogates, which SQLite would store as invalid UTF-8', () => {
    expect(wellFormed('a\ud800b')).toBe('a\ufffdb');
    expect(wellFormed('\udfff')).toBe('\ufffd');
    expect(wellFormed('pair \ud83d\ude00 kept')).toBe('pair \ud83d\ude00 kept');
    expect(wellFormed('plain')).toBe('plain');
    const r = run([{ id: 'x\ud800', input: '\udc00', output: 'ok', target: '\ud800' }]);
    r.condition.name = 'cond \udbff';
    checkImportedRuns([r]);
    expect(r.examples[0]).toMatchObject({
      id: 'x\ufffd',
      input: '\ufffd',
      output: 'ok',
      target: '\ufffd',
    });
    expect(r.condition.name).toBe('cond \ufffd');
  });

  it('refuses two ids that become one once their lone surrogates are replaced', () => {
    const r = run([{ id: 's\ud800' }, { id: 's\udbff' }]);
    expect(() => checkImportedRuns([r])).toThrow(ImportProblem);
    expect(() => checkImportedRuns([run([{ id: 's\ufffd' }, { id: 's\ud800' }])])).toThrow(
      /"s\\ufffd" and "s\\ud800".*same id/,
    );
  });

  it('keeps ids that differ only in Unicode normalization apart, with a warning', () => {
    const r = run([{ id: 'caf\u00e9' }, { id: 'cafe\u0301' }, { id: 'plain' }]);
    checkImportedRuns([r]);
    expect(r.examples.map((e) => e.id)).toEqual(['caf\u00e9', 'cafe\u0301', 'plain']);
    expect(r.warnings).toEqual([expect.stringMatching(/"caf\\u00e9" and "cafe\\u0301"/)]);
  });

  it('counts JSON values from the text and refuses a parse that would hold too many', () => {
    expect(countJsonValues('1')).toBe(1);
    expect(countJsonValues('[1,2,{"a":[]}]')).toBe(6);
    expect(countJsonValues(',,,,', 2)).toBe(3);
    const bomb = `[${'[],'.repeat(99)}[]]`;
    expect(() => parseJson(bomb, undefined, 50)).toThrow(
      /more than 50 values.*several smaller files/,
    );
    expect(parseJson(bomb, undefined, 300)).toHaveLength(100);
    expect(MAX_JSON_VALUES).toBeGreaterThan(40_000_000);
  });
});
