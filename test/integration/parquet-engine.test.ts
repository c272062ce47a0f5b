import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  asyncBufferFromFile,
  parquetMetadataAsync,
  parquetReadObjects,
  parquetSchema,
  type SchemaTree,
} from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../electron/cli/commands';
import { compareCommand, type CompareFlags } from '../../electron/cli/compare';
import { exportParquetCommand } from '../../electron/cli/parquet';
import { dispatch } from '../../electron/core/dispatch';
import { listExperiments } from '../../electron/core/experiments';
import { exportParquet } from '../../electron/core/export/parquet';
import { PARQUET_TABLES } from '../../electron/core/export/parquet-schema';
import type { Report } from '../../shared/compare/types';
import { HAND_MADE, writeParquetLibrary } from '../fixtures/parquet-library';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness;
let dbPath: string;
let exportDir: string;
let root: string;
let experiments: string[];

async function cli(run: (io: Io) => Promise<number>): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run({ out: (t) => out.push(t), err: (t) => err.push(t) });
  if (code !== 0) throw new Error(`exit ${code}: ${err.join('\n')}`);
  return out.join('\n');
}

const compare = (flags: CompareFlags, paths: string[] = []) =>
  cli((io) => compareCommand(paths, { format: 'json', resamples: '200', ...flags }, io));

beforeAll(async () => {
  harness = makeService();
  root = path.join(harness.dir, 'runs');
  writeParquetLibrary(root);
  await harness.service.index([root]);
  const ok = (r: { ok: boolean }) => expect(r.ok).toBe(true);
  ok(await dispatch(harness.service, 'runs:setOverride', HAND_MADE.replicate));
  ok(await dispatch(harness.service, 'conditions:setSeries', HAND_MADE.series));
  dbPath = harness.service.db.name;
  experiments = listExperiments(harness.service.db).map((e) => e.id);
  exportDir = path.join(harness.dir, 'export');
  await cli((io) => exportParquetCommand(['parquet', exportDir], { db: dbPath }, io));
}, 120_000);

afterAll(async () => {
  await harness.close();
});

async function query<T>(sql: string): Promise<T[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(sql);
    return reader.getRowObjectsJS() as T[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const file = (table: string) => `'${path.join(exportDir, `${table}.parquet`)}'`;

describe('the Parquet export', () => {
  it('writes every table with its documented columns, and leaves no staging behind', async () => {
    expect(fs.readdirSync(exportDir).sort()).toEqual(
      PARQUET_TABLES.map((t) => `${t.name}.parquet`).sort(),
    );
    const docs = fs.readFileSync(path.join(__dirname, '../../docs/parquet.md'), 'utf8');
    for (const table of PARQUET_TABLES) {
      const columns = await query<{ column_name: string; column_type: string }>(
        `DESCRIBE SELECT * FROM read_parquet(${file(table.name)})`,
      );
      expect(columns.map((c) => [c.column_name, c.column_type])).toEqual(
        table.columns.map((c) => [c.name, c.type]),
      );
      for (const column of table.columns) expect(docs).toContain(`| \`${column.name}\``);
    }
  });

  it('is plain Parquet: another reader (hyparquet) sees the same types and rows', async () => {
    // Physical type and annotation of each plain column type, as any Parquet reader sees it.
    const plain = (node: SchemaTree): string => {
      const { type, converted_type: converted } = node.element;
      if (converted === 'LIST') return `LIST<${plain(node.children[0]!.children[0]!)}>`;
      return converted ? `${type}/${converted}` : String(type);
    };
    const expected = {
      VARCHAR: 'BYTE_ARRAY/UTF8',
      BIGINT: 'INT64/INT_64',
      INTEGER: 'INT32/INT_32',
      DOUBLE: 'DOUBLE',
      BOOLEAN: 'BOOLEAN',
      'VARCHAR[]': 'LIST<BYTE_ARRAY/UTF8>',
    };
    for (const table of PARQUET_TABLES) {
      const buffer = await asyncBufferFromFile(path.join(exportDir, `${table.name}.parquet`));
      const metadata = await parquetMetadataAsync(buffer);
      expect(parquetSchema(metadata).children.map((c) => [c.element.name, plain(c)])).toEqual(
        table.columns.map((c) => [c.name, expected[c.type]]),
      );
      const rows = await parquetReadObjects({ file: buffer, compressors });
      const [count] = await query<{ n: bigint }>(
        `SELECT count(*) AS n FROM read_parquet(${file(table.name)})`,
      );
      expect(rows.length).toBe(Number(count!.n));
    }
  });

  it('holds the library: shapes with missing ids, errors, series and a replicate', async () => {
    const [counts] = await query<{ experiments: bigint; runs: bigint; examples: bigint }>(
      `SELECT (SELECT count(*) FROM read_parquet(${file('experiments')})) AS experiments,
              (SELECT count(*) FROM read_parquet(${file('runs')})) AS runs,
              (SELECT count(*) FROM read_parquet(${file('examples')})) AS examples`,
    );
    expect(Number(counts!.experiments)).toBe(experiments.length);
    expect(experiments.length).toBe(4);
    expect(Number(counts!.runs)).toBe(11);
    const errored = await query<{ n: bigint }>(
      `SELECT count(*) AS n FROM read_parquet(${file('examples')}) WHERE error IS NOT NULL AND error <> ''`,
    );
    expect(Number(errored[0]!.n)).toBe(3);
  });

  it("gives the report's paired differences and counts, read back with DuckDB", async () => {
    for (const experimentId of experiments) {
      const report = JSON.parse(await compare({ db: dbPath, experiment: experimentId })) as Report;
      const byPair = await query<{
        pair: number;
        criterion: string;
        class: string;
        n: bigint;
        mean: number | null;
        paired: bigint;
      }>(
        `SELECT pair, criterion, class, count(*) AS n, avg(difference) AS mean,
                count(difference) AS paired
         FROM read_parquet(${file('comparison_criteria')})
         WHERE experiment_id = '${experimentId}'
         GROUP BY ALL`,
      );
      const flags = await query<{ pair: number; paired: bigint; output_changed: bigint }>(
        `SELECT pair, count(*) FILTER (WHERE in_reference AND in_candidate) AS paired,
                count(*) FILTER (WHERE output_changed) AS output_changed
         FROM read_parquet(${file('comparison_examples')})
         WHERE experiment_id = '${experimentId}' GROUP BY pair`,
      );
      report.comparisons.forEach((comparison, pair) => {
        const f = flags.find((r) => r.pair === pair)!;
        expect(Number(f.paired)).toBe(comparison.coverage.paired);
        expect(Number(f.output_changed)).toBe(comparison.examples.output_changed.length);
        for (const criterion of comparison.criteria) {
          for (const cls of ['improved', 'regressed', 'unchanged', 'changed', 'not_comparable'])
            expect(
              Number(
                byPair.find(
                  (r) => r.pair === pair && r.criterion === criterion.field && r.class === cls,
                )?.n ?? 0,
              ),
              `${experimentId} ${pair} ${criterion.field} ${cls}`,
            ).toBe(criterion[cls as 'improved']);
        }
        for (const metric of comparison.metrics) {
          if (!metric.paired || metric.paired.difference === null) continue;
          const rows = byPair.filter(
            (r) =>
              r.pair === pair &&
              r.criterion === metric.example_field &&
              r.class !== 'not_comparable',
          );
          const n = rows.reduce((s, r) => s + Number(r.paired), 0);
          const sum = rows.reduce((s, r) => s + (r.mean ?? 0) * Number(r.paired), 0);
          expect(n).toBe(metric.paired.n);
          expect(sum / n).toBeCloseTo(metric.paired.difference, 10);
        }
      });
    }
  });

  it('lists examples by run id, then example id, whatever order their files give', async () => {
    const rows = await query<{ run_id: string; example_id: string }>(
      `SELECT run_id, example_id FROM read_parquet(${file('examples')})`,
    );
    const byIds = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
      a.run_id < b.run_id ? -1 : a.run_id > b.run_id ? 1 : a.example_id < b.example_id ? -1 : 1;
    expect(rows.map((r) => `${r.run_id} ${r.example_id}`)).toEqual(
      [...rows].sort(byIds).map((r) => `${r.run_id} ${r.example_id}`),
    );
  });

  it('holds only the experiments asked for, and names one it does not know', async () => {
    const dir = path.join(harness.dir, 'one');
    const flags = { db: dbPath, experiment: ['exp-missing'], json: true };
    const stats = JSON.parse(
      await cli((io) => exportParquetCommand(['parquet', dir], flags, io)),
    ) as { experiments: number; runs: number; examples: number };
    expect(stats).toMatchObject({ experiments: 1, runs: 2, examples: 76 });
    const [row] = await query<{ ids: string[] }>(
      `SELECT list(DISTINCT experiment_id) AS ids FROM read_parquet('${path.join(dir, 'runs.parquet')}')`,
    );
    expect(row!.ids).toEqual(['exp-missing']);
    await expect(
      cli((io) => exportParquetCommand(['parquet', dir], { db: dbPath, experiment: ['nope'] }, io)),
    ).rejects.toThrow(/There is no experiment "nope"/);
  });

  it('leaves no file in DIR when the export fails after some tables are written', async () => {
    const dir = path.join(harness.dir, 'failed');
    const [experimentId] = experiments;
    const report = JSON.parse(await compare({ db: dbPath, experiment: experimentId })) as Report;
    // A report no longer cached fails in the comparison tables, after the first four are copied.
    await expect(
      exportParquet(harness.service.db, dir, { reports: [{ key: 'gone', report }] }),
    ).rejects.toThrow(/no longer cached/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('the DuckDB engine', () => {
  it('prints the built-in report byte for byte, for every shape', async () => {
    const shapes = new Set<string>();
    for (const experiment of experiments) {
      const builtin = await compare({ db: dbPath, experiment });
      const report = JSON.parse(builtin) as Report;
      const coverage = report.comparisons.map((c) => c.coverage);
      if (coverage.some((c) => c.only_reference.length && c.only_candidate.length))
        shapes.add('missing ids');
      if (coverage.some((c) => c.input_mismatch.length)) shapes.add('input mismatch');
      if (coverage.some((c) => c.errored_reference?.length)) shapes.add('errors');
      if (report.noise_floor) shapes.add('replicate');
      if (report.series.some((s) => s.points.some((p) => p.level === 0.5)))
        shapes.add('declared series');
      if (report.comparisons.some((c) => c.reference.condition === 'steer-2'))
        shapes.add('compare_to');
      if (['name', 'earliest'].includes(report.experiment.reference_basis ?? ''))
        shapes.add('guessed reference');
      expect(await compare({ engine: 'duckdb', parquet: exportDir, experiment })).toBe(builtin);
      expect(await compare({ engine: 'duckdb', db: dbPath, experiment })).toBe(builtin);
    }
    expect([...shapes].sort()).toEqual([
      'compare_to',
      'declared series',
      'errors',
      'guessed reference',
      'input mismatch',
      'missing ids',
      'replicate',
    ]);
  });

  it('with a reference chosen by hand, and every experiment at once', async () => {
    const flags = { experiment: 'exp-series', reference: 'steer-2' };
    expect(await compare({ engine: 'duckdb', parquet: exportDir, ...flags })).toBe(
      await compare({ db: dbPath, ...flags }),
    );
    expect(await compare({ engine: 'duckdb', parquet: exportDir })).toBe(
      await compare({ db: dbPath }),
    );
  });

  it('writes the examples CSV of every experiment byte for byte', async () => {
    for (const experiment of experiments) {
      const builtin = await compare({ db: dbPath, experiment, format: 'csv' });
      expect(builtin.split('\r\n').length).toBeGreaterThan(10);
      for (const flags of [{ parquet: exportDir }, { db: dbPath }])
        expect(await compare({ engine: 'duckdb', experiment, format: 'csv', ...flags })).toBe(
          builtin,
        );
    }
  });

  it('compares two runs, within an experiment or across two, as the built-in engine', async () => {
    const within = ['series-base', 'series-s4'];
    const [across] = await query<{ run_id: string }>(
      `SELECT run_id FROM read_parquet(${file('runs')}) WHERE experiment_id = 'exp-missing' ORDER BY run_id LIMIT 1`,
    );
    for (const [a, b] of [within, ['series-s1', across!.run_id]]) {
      for (const format of ['json', 'csv', 'table']) {
        const builtin = await compare({ db: dbPath, format }, [a!, b!]);
        expect(await compare({ engine: 'duckdb', db: dbPath, format }, [a!, b!])).toBe(builtin);
        expect(
          await compare({
            engine: 'duckdb',
            parquet: exportDir,
            format,
            baseline: a,
            candidate: b,
          }),
        ).toBe(builtin);
      }
    }
    await expect(
      compare({ engine: 'duckdb', parquet: exportDir }, ['series-base', 'nope']),
    ).rejects.toThrow(/There is no run "nope"/);
  });

  it('compares two paths, and a folder, indexed first as the built-in engine does', async () => {
    const errors = path.join(root, 'errors');
    const [a, b] = fs.readdirSync(errors).sort();
    const pair = [path.join(errors, a!), path.join(errors, b!)];
    for (const format of ['json', 'csv']) {
      expect(await compare({ engine: 'duckdb', format }, pair)).toBe(
        await compare({ format }, pair),
      );
    }
    const folder = [path.join(root, 'guess')];
    expect(await compare({ engine: 'duckdb' }, folder)).toBe(await compare({}, folder));
  });

  it('refuses a folder that is not an export, and an address that is not s3://', async () => {
    await expect(
      compare({ engine: 'duckdb', parquet: 'https://example.com/export' }),
    ).rejects.toThrow(/reads a local folder or an s3:\/\/ prefix/);
    await expect(compare({ engine: 'duckdb', parquet: harness.dir })).rejects.toThrow(
      /not a Parquet export of Pairwise: experiments\.parquet is missing/,
    );
  });
});
