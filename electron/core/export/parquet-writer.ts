import fs from 'node:fs';
import path from 'node:path';
import {
  DuckDBInstance,
  LIST,
  VARCHAR,
  type DuckDBAppender,
  type DuckDBConnection,
} from '@duckdb/node-api';
import { sqlString } from '../duckdb/sql';
import type { ColumnSpec, TableSpec } from './parquet-schema';

export type Cell = string | number | bigint | boolean | string[] | null;

/** Rows appended between flushes: bounds what the appender buffers on the JS side. */
const FLUSH_EVERY = 20_000;

/**
 * Rows are staged in an on-disk DuckDB file, then each table is copied to one Parquet file: a
 * library's examples never sit in memory at once, neither in JS (they are appended as SQLite
 * hands them over) nor in DuckDB (which spills its pages to the file). The staging file is as
 * large as the export uncompressed, so it sits in a hidden folder inside the export's own folder
 * (the disk chosen for it), not in the system's temporary folder.
 */
export class ParquetStaging {
  /** Parquet files written so far, each still in the staging folder under its final name. */
  private readonly written: string[] = [];

  private constructor(
    private readonly dir: string,
    private readonly connection: DuckDBConnection,
    private readonly close: () => void,
  ) {}

  static async open(target: string): Promise<ParquetStaging> {
    const dir = fs.mkdtempSync(path.join(target, '.pairwise-staging-'));
    const instance = await DuckDBInstance.create(path.join(dir, 'staging.duckdb'), {
      memory_limit: '512MB',
      threads: '2',
    });
    const connection = await instance.connect();
    return new ParquetStaging(dir, connection, () => {
      connection.closeSync();
      instance.closeSync();
      fs.rmSync(dir, { recursive: true, force: true });
    });
  }

  async table(spec: TableSpec): Promise<TableAppender> {
    const columns = spec.columns.map((c) => `"${c.name}" ${c.type}`).join(', ');
    await this.connection.run(`CREATE TABLE "${spec.name}" (${columns})`);
    return new TableAppender(spec, await this.connection.createAppender(spec.name));
  }

  /**
   * Writes `<table>.parquet`, its rows in the order they were appended, into the staging
   * folder: the export's folder only gets it from `publish`, once every table is written.
   */
  async copy(spec: TableSpec): Promise<void> {
    const name = `${spec.name}.parquet`;
    await this.connection.run(
      `COPY "${spec.name}" TO ${sqlString(path.join(this.dir, name))} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 20480)`,
    );
    await this.connection.run(`DROP TABLE "${spec.name}"`);
    this.written.push(name);
  }

  /**
   * Moves the written files into `target` (the folder the staging one sits in, so each move is
   * a rename on one disk): an export that fails or is killed before this leaves `target` with
   * no file of it, only the hidden staging folder, never a half-written Parquet file.
   */
  publish(target: string): void {
    for (const name of this.written)
      fs.renameSync(path.join(this.dir, name), path.join(target, name));
  }

  dispose(): void {
    this.close();
  }
}

export class TableAppender {
  private pending = 0;

  constructor(
    private readonly spec: TableSpec,
    private readonly appender: DuckDBAppender,
  ) {}

  /** One row, its cells in the spec's column order. */
  append(cells: Cell[]): void {
    this.spec.columns.forEach((column, i) => appendCell(this.appender, column, cells[i] ?? null));
    this.appender.endRow();
    if (++this.pending >= FLUSH_EVERY) {
      this.appender.flushSync();
      this.pending = 0;
    }
  }

  finish(): void {
    this.appender.closeSync();
  }
}

function appendCell(appender: DuckDBAppender, column: ColumnSpec, value: Cell): void {
  if (value === null) return appender.appendNull();
  switch (column.type) {
    case 'VARCHAR':
      return appender.appendVarchar(String(value));
    case 'BIGINT':
      return appender.appendBigInt(BigInt(value as number | bigint));
    case 'INTEGER':
      return appender.appendInteger(value as number);
    case 'DOUBLE':
      return appender.appendDouble(value as number);
    case 'BOOLEAN':
      return appender.appendBoolean(Boolean(value));
    case 'VARCHAR[]':
      return appender.appendList(value as string[], LIST(VARCHAR));
  }
}
