import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runsCommand, type Io } from '../../electron/cli/commands';
import { compareCommand } from '../../electron/cli/compare';
import { openDatabase } from '../../electron/core/db/open';
import { indexUnit } from '../../electron/core/ingest/index-unit';
import { IndexStore } from '../../electron/core/ingest/store';
import { listExperiments } from '../../electron/core/experiments';
import { listRuns } from '../../electron/core/library';
import {
  examples,
  mechlensRecord,
  writeGenericCsv,
  writeGenericJsonl,
  writeLmEval,
  writeMechlensRun,
  writePromptfoo,
} from '../fixtures/formats';
import { evalSample, jsonLog, writeEvalLog } from '../fixtures/inspect';
import { writeRepsRun } from '../fixtures/reps';
import { makeService, type Harness } from '../fixtures/service';
import { tempDir } from '../fixtures/tmp';

const SECRET = 'sk-planted-6b1d9e0f4c2a7358';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** Two runs per format where the format allows, each carrying the planted key somewhere. */
function library(root: string): void {
  const config = { seed: 7, apiKey: SECRET, max_tokens: 64 };
  writeMechlensRun(path.join(root, 'mechlens'), { id: 'ref-1', extra: { config } });
  writeMechlensRun(path.join(root, 'mechlens'), {
    id: 'int-1',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    extra: { config, provenance: { remote: `https://user:${SECRET}@example.com/x.git` } },
  });
  for (const seed of [1, 2]) {
    writeRepsRun({
      dataDir: path.join(root, 'reps'),
      runId: `20260101t00000${seed}z-00000000000${seed}`,
      seed,
      params: { model: 'm', provider: { api_key: SECRET } },
      samples: [{ id: 1, input: 'q', output: 'a', scores: { match: 'C' } }],
    });
  }
  const samples = [evalSample({ id: 1 }), evalSample({ id: 2 })];
  const modelArgs = { api_key: SECRET, base_url: `https://proxy.example.com/v1?key=${SECRET}` };
  fs.mkdirSync(path.join(root, 'inspect'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'inspect', '2025-05-12T20-28-26-04-00_popularity_a.json'),
    JSON.stringify(jsonLog({ modelArgs, samples, evalId: 'evalJSONJSONJSONJSONJS' })),
  );
  writeEvalLog(path.join(root, 'inspect', 'b.eval'), 'finished', {
    modelArgs,
    samples,
    model: 'openai/gpt-4o',
  });
  const modelArgsText = `pretrained=org/model-a,api_key=${SECRET}`;
  writeLmEval(path.join(root, 'lmeval'), { modelArgs: modelArgsText });
  writeLmEval(path.join(root, 'lmeval'), {
    modelArgs: modelArgsText,
    dateId: '2026-09-19T09-12-44.118273',
  });
  writePromptfoo(path.join(root, 'promptfoo'), {
    providers: [
      { id: 'openai:model-a', config: { apiKey: SECRET, temperature: 0 } },
      { id: 'openai:model-b', config: { headers: { Authorization: `Bearer ${SECRET}` } } },
    ],
  });
  const sidecar = {
    experiment: { id: 'generic-exp' },
    config: { OPENAI_API_KEY: SECRET, batch: 4 },
    files: { 'baseline.jsonl': { role: 'reference' } },
  };
  const rows = examples(3).map((e) => ({
    id: e.id,
    input: e.input,
    output: e.output,
    ...e.fields,
  }));
  writeGenericJsonl(path.join(root, 'generic'), 'baseline.jsonl', rows, sidecar);
  writeGenericCsv(
    path.join(root, 'generic'),
    'candidate.csv',
    'id,input,output,score\nex-001,Prompt number 1?,A,1\nex-002,Prompt number 2?,B,2\n',
  );
}

function databaseBytes(dbPath: string): Buffer {
  const parts = ['', '-wal', '-shm'].map((suffix) => `${dbPath}${suffix}`);
  return Buffer.concat(parts.filter((p) => fs.existsSync(p)).map((p) => fs.readFileSync(p)));
}

function capture(): Io & { text(): string } {
  const lines: string[] = [];
  return { out: (t) => lines.push(t), err: (t) => lines.push(t), text: () => lines.join('\n') };
}

describe('credentials at import', () => {
  it('never reach the database, runs --json or a comparison, whatever the format', async () => {
    harness = makeService();
    const root = path.join(harness.dir, 'library');
    library(root);
    const stats = await harness.service.index([root]);
    expect(stats.problems).toEqual([]);
    const runs = listRuns(harness.service.db);
    const formats = new Set(runs.map((r) => r.format));
    expect([...formats].sort()).toEqual(
      ['csv', 'inspect', 'jsonl', 'lm-eval', 'mechlens', 'promptfoo', 'reps'].sort(),
    );
    const dbPath = harness.service.db.name;
    expect(databaseBytes(dbPath).includes(SECRET)).toBe(false);

    const warnings = harness.service.db
      .prepare(`SELECT format, warnings FROM runs ORDER BY format`)
      .all() as { format: string; warnings: string }[];
    for (const format of formats) {
      const of = warnings.filter((w) => w.format === format).map((w) => w.warnings);
      expect(of.join(' '), format).toMatch(/credential-like settings? redacted: /);
    }
    expect(warnings.find((w) => w.format === 'promptfoo')?.warnings).toContain(
      '1 credential-like setting redacted: config.apiKey',
    );
    const experiments = listExperiments(harness.service.db).map((e) => e.id);
    await harness.service.close();

    const io = capture();
    expect(await runsCommand({ db: dbPath, json: true }, io)).toBe(0);
    for (const experiment of experiments) {
      for (const format of ['json', 'table', 'summary-csv']) {
        const flags = { db: dbPath, experiment, format, resamples: '100' };
        expect(await compareCommand([], flags, io), `${experiment} ${format}`).toBe(0);
      }
    }
    expect(io.text()).toContain('[redacted]');
    expect(io.text()).not.toContain(SECRET);
    expect(databaseBytes(dbPath).includes(SECRET)).toBe(false);
  }, 60_000);
});

describe('credentials in a large MechLens file read in batches', () => {
  it('are redacted on the streamed path too', async () => {
    const t = tempDir();
    try {
      const file = path.join(t.dir, 'lib', '.mechlens', 'runs', 'run-0001.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const record = mechlensRecord({ extra: { config: { seed: 1, api_key: SECRET } } });
      fs.writeFileSync(file, JSON.stringify(record));
      const db = openDatabase(path.join(t.dir, 'p.db'));
      const unit = { path: file, kind: 'file' as const, files: [file] };
      const stream = { streamFromBytes: 0, batchBytes: 150 };
      const task = { unit, folder: null, dbPath: db.name, stream };
      const result = await indexUnit(task, new IndexStore(db), new AbortController().signal);
      expect(result.status).toBe('imported');
      const run = db.prepare(`SELECT settings, warnings FROM runs`).get() as {
        settings: string;
        warnings: string;
      };
      expect(JSON.parse(run.settings).config).toEqual({ seed: 1, api_key: '[redacted]' });
      expect(run.warnings).toContain('1 credential-like setting redacted: config.api_key');
      expect(databaseBytes(db.name).includes(SECRET)).toBe(false);
      db.close();
    } finally {
      t.cleanup();
    }
  });
});
