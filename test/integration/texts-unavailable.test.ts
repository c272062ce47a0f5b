import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../electron/core/dispatch';
import { exportParquet } from '../../electron/core/export/parquet';
import { runRecord } from '../../electron/core/sync/records';
import { exampleKey } from '../../electron/core/texts/keys';
import { requests, type RequestOutput } from '../../shared/contract';
import type { OpenedFinding } from '../../shared/findings';
import { indexAndCompare } from '../fixtures/compared';
import { writeMechlensRun } from '../fixtures/formats';
import { locateRunThen, longExamples, type SourceFate } from '../fixtures/located';
import { count, runRowid, unsearchable } from '../fixtures/search';
import { callOk, makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

const EXAMPLES = 12;

/**
 * A reference and a candidate run with long texts, compared; then the runs named in `fates`
 * have their blocks stored located in their source file, which changes or vanishes before
 * the archive could copy them.
 */
async function library(
  fates: Partial<Record<'ref' | 'cand', SourceFate>>,
): Promise<{ reportKey: string; paths: Record<string, string> }> {
  harness = makeService();
  const { service } = harness;
  const root = path.join(harness.dir, 'lib');
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: longExamples(EXAMPLES) });
  writeMechlensRun(root, {
    id: 'cand',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: longExamples(EXAMPLES, ' else'),
  });
  const key = await indexAndCompare(service, root, 'exp-test', 200);
  const paths: Record<string, string> = {};
  for (const [run, fate] of Object.entries(fates))
    paths[run] = locateRunThen(service.db, run, fate);
  return { reportKey: key, paths };
}

function call<T>(name: string, input: unknown): Promise<T> {
  return callOk<T>(harness!.service, name, input);
}

async function callError(name: string, input: unknown): Promise<{ code: string; message: string }> {
  const result = await dispatch(harness!.service, name, input);
  if (result.ok) throw new Error(`${name} should have failed`);
  return result.error;
}

type Page = RequestOutput<'examples:page'>;
type Detail = RequestOutput<'examples:detail'>;

describe('texts whose source changed or vanished before they were archived', () => {
  it('are marked in the explorer detail, never shown as empty texts', async () => {
    const { reportKey } = await library({ ref: 'changed' });
    const detail = await call<Detail>('examples:detail', {
      reportKey,
      pair: 0,
      exampleId: 'ex-003',
    });
    requests['examples:detail'].output.parse(detail);
    expect(detail.reference).toMatchObject({
      run_id: 'ref',
      input: '',
      output: '',
      unavailable: 'source-changed',
      fields: { score: 2, refused: true },
    });
    expect(detail.candidate).toMatchObject({ run_id: 'cand', unavailable: null });
    expect(detail.candidate!.output).toContain('something else');
  });

  it("show a page row the candidate's input when the inputs are the same", async () => {
    const { reportKey } = await library({ ref: 'missing' });
    const page = await call<Page>('examples:page', { reportKey, pair: 0 });
    requests['examples:page'].output.parse(page);
    expect(page.rows).toHaveLength(EXAMPLES);
    for (const row of page.rows) {
      expect(row.input_unavailable).toBeNull();
      expect(row.input).toMatch(/^Please explain/);
    }
  });

  it('say why a page row has no input when no side could be read', async () => {
    const { reportKey } = await library({ ref: 'missing', cand: 'changed' });
    const page = await call<Page>('examples:page', { reportKey, pair: 0 });
    requests['examples:page'].output.parse(page);
    expect(page.rows.map((r) => [r.input, r.input_unavailable])).toEqual(
      page.rows.map(() => ['', 'source-missing']),
    );
    const detail = await call<Detail>('examples:detail', {
      reportKey,
      pair: 0,
      exampleId: 'ex-001',
    });
    expect([detail.reference?.unavailable, detail.candidate?.unavailable]).toEqual([
      'source-missing',
      'source-changed',
    ]);
  });

  it('cannot be pinned into a finding as evidence', async () => {
    const { reportKey, paths } = await library({ cand: 'changed' });
    const view = await call<OpenedFinding>('findings:create', {
      experimentId: 'exp-test',
      resamples: 200,
    });
    const error = await callError('findings:pin', {
      findingId: view.finding.id,
      reportKey,
      pair: 0,
      exampleId: 'ex-002',
    });
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('run "cand"');
    expect(error.message).toContain(paths.cand!);
    expect(error.message).toMatch(/changed since it was indexed.*re-index the folder/);
    const after = await call<OpenedFinding>('findings:get', { findingId: view.finding.id });
    expect(after.body.pinned).toEqual([]);
  });

  it('fail a CSV export with a sentence naming the run, its file and what to do', async () => {
    const { reportKey, paths } = await library({ ref: 'changed' });
    const error = await callError('export:examplesCsv', { reportKey, pair: 0 });
    expect(error.code).toBe('conflict');
    expect(error.message).toBe(
      `The source file of run "ref" (${paths.ref}) changed since it was indexed and its texts ` +
        'were not archived yet: re-index the folder, then try again.',
    );
  });

  it('fail a Parquet export, leaving no file behind', async () => {
    await library({ cand: 'missing' });
    const dir = path.join(harness!.dir, 'parquet');
    await expect(exportParquet(harness!.service.db, dir)).rejects.toThrow(
      /run "cand" .* is gone and its texts were not archived yet/,
    );
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
  });

  it("fail a sync record built from the library when the file's own bytes are gone", async () => {
    await library({ ref: 'changed', cand: 'missing' });
    await expect(runRecord(harness!.service.db, 'ref')).rejects.toThrow(/run "ref".*changed/);
    await expect(runRecord(harness!.service.db, 'cand')).rejects.toThrow(/run "cand".*is gone/);
  });

  it('leave the search fill nothing to index: it finishes, and the run is not found', async () => {
    await library({ ref: 'changed' });
    const { db, search } = harness!.service;
    const ref = runRowid(db, 'ref');
    unsearchable(db, ref);
    search.schedule();
    await search.idle();
    expect(db.prepare(`SELECT done, ready FROM run_search WHERE run_rowid = ?`).get(ref)).toEqual({
      done: EXAMPLES,
      ready: 1,
    });
    const [lo, hi] = [exampleKey(ref, 0), exampleKey(ref, EXAMPLES - 1)];
    expect(count(db, `SELECT count(*) FROM examples_fts WHERE rowid BETWEEN ${lo} AND ${hi}`)).toBe(
      0,
    );
  });
});
