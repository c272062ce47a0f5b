import Database from 'better-sqlite3';
import { hash } from 'node:crypto';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latestVersion, migrations } from '../../electron/core/db/migrations';
import { migrate } from '../../electron/core/db/open';
import { listRuns } from '../../electron/core/library';
import { PairwiseService } from '../../electron/core/service';
import { tempDir } from '../fixtures/tmp';

const sha1 = (text: string) => hash('sha1', text, 'hex');

let cleanup: () => void = () => undefined;
afterEach(() => cleanup());

const settings = JSON.stringify({ model: { id: 'org/model' }, generation: { temperature: 0 } });

/**
 * A library as the first Pairwise wrote it (schema 1): a folder, a source, two runs of one
 * experiment with examples, and a hand-made override; nothing later versions added.
 */
function firstVersionLibrary(file: string): void {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  migrate(db, file, migrations.slice(0, 1));
  db.exec(`
    INSERT INTO folders (path, watched, added_at) VALUES ('/lib', 0, '2026-01-01');
    INSERT INTO sources (id, path, folder, status, indexed_at, importer, importer_version)
      VALUES (1, '/lib/a.json', '/lib', 'imported', '2026-01-01', 'mechlens', '1');
    INSERT INTO projects (id, name) VALUES ('p', 'p');
    INSERT INTO experiments (id, project_id, name, declared) VALUES ('exp', 'p', 'exp', 1);
  `);
  const run = db.prepare(
    `INSERT INTO runs (id, source_id, experiment_id, condition_name, role, settings, format, state,
       finished_at, sort_time, metrics, metric_definitions, example_count)
     VALUES (?, 1, 'exp', ?, ?, ?, 'mechlens', 'completed', ?, ?, ?, ?, 3)`,
  );
  const definitions = JSON.stringify({ mean_score: { example_field: 'score' } });
  const ref = run.run(
    'ref',
    'base',
    'reference',
    settings,
    '2026-01-01',
    '2026-01-01',
    '{"mean_score":2}',
    definitions,
  );
  const cand = run.run(
    'cand',
    'steer',
    null,
    settings,
    '2026-01-02',
    '2026-01-02',
    '{"mean_score":3}',
    definitions,
  );
  const example = db.prepare(
    `INSERT INTO examples (run_rowid, example_id, input, output, fields, input_hash, output_hash, fields_hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const [rowid, shift] of [
    [ref.lastInsertRowid, 0],
    [cand.lastInsertRowid, 1],
  ] as const) {
    for (let i = 0; i < 3; i++) {
      const [input, output, fields] = [
        `question about walruses ${i}`,
        `answer ${i + shift}`,
        JSON.stringify({ score: i + shift }),
      ];
      example.run(rowid, `ex-${i}`, input, output, fields, sha1(input), sha1(output), sha1(fields));
    }
  }
  db.prepare(
    `INSERT INTO run_overrides (run_id, role, updated_at) VALUES ('cand', 'intervention', '2026-01-03')`,
  ).run();
  db.close();
}

describe('migrations', () => {
  it('upgrade a first-version library step by step to the latest without losing a row', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = path.join(t.dir, 'pairwise.db');
    firstVersionLibrary(file);

    const service = new PairwiseService({ dbPath: file, host: 'cli', version: 'test' });
    try {
      expect(service.db.pragma('user_version', { simple: true })).toBe(latestVersion);
      expect(service.db.pragma('integrity_check', { simple: true })).toBe('ok');
      const runs = listRuns(service.db, 'exp');
      expect(runs.map((r) => [r.run_id, r.condition, r.role])).toEqual([
        ['ref', 'base', 'reference'],
        ['cand', 'steer', 'intervention'],
      ]);
      // Its rows become blocks, and the full-text index is rebuilt, in the background.
      await service.converted();
      await service.search.idle();
      const found = service.db
        .prepare(`SELECT COUNT(*) AS n FROM examples_fts WHERE examples_fts MATCH 'walruses'`)
        .get() as { n: number };
      expect(found.n).toBe(6);
      const { report } = await service.compare.run({ experimentId: 'exp', resamples: 200 });
      expect(report.comparisons).toHaveLength(1);
      expect(report.comparisons[0]!.coverage.paired).toBe(3);
      expect(report.comparisons[0]!.examples.output_changed).toEqual(['ex-0', 'ex-1', 'ex-2']);
    } finally {
      await service.close();
    }
  });
});
