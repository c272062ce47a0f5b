/**
 * The Parquet export's tables (docs/parquet.md documents every column). Only plain types, so
 * DuckDB, Polars, pandas and Spark all read them: strings, 64-bit integers, doubles, booleans
 * and lists of strings. Objects (settings, metrics, fields) are JSON text, never DuckDB's own
 * JSON or MAP types; times are ISO 8601 text in UTC, as the library stores them.
 */

export type ColumnType = 'VARCHAR' | 'BIGINT' | 'INTEGER' | 'DOUBLE' | 'BOOLEAN' | 'VARCHAR[]';

export interface ColumnSpec {
  name: string;
  type: ColumnType;
}

export interface TableSpec {
  /** The file is `<name>.parquet`. */
  name: string;
  columns: ColumnSpec[];
}

const col = (name: string, type: ColumnType): ColumnSpec => ({ name, type });

export const EXPERIMENTS: TableSpec = {
  name: 'experiments',
  columns: [
    col('experiment_id', 'VARCHAR'),
    col('project', 'VARCHAR'),
    col('name', 'VARCHAR'),
    col('question', 'VARCHAR'),
    col('claim', 'VARCHAR'),
    col('deviations', 'VARCHAR[]'),
    col('reproduces', 'VARCHAR'),
    col('reference', 'VARCHAR'),
    col('reference_basis', 'VARCHAR'),
  ],
};

export const CONDITIONS: TableSpec = {
  name: 'conditions',
  columns: [
    col('experiment_id', 'VARCHAR'),
    col('condition', 'VARCHAR'),
    col('position', 'INTEGER'),
    col('role', 'VARCHAR'),
    col('representative_run_id', 'VARCHAR'),
    col('series', 'VARCHAR'),
    col('level', 'DOUBLE'),
    col('series_declared', 'BOOLEAN'),
  ],
};

export const RUNS: TableSpec = {
  name: 'runs',
  columns: [
    col('run_id', 'VARCHAR'),
    col('experiment_id', 'VARCHAR'),
    col('project', 'VARCHAR'),
    col('format', 'VARCHAR'),
    col('condition', 'VARCHAR'),
    col('position', 'INTEGER'),
    col('role', 'VARCHAR'),
    col('series', 'VARCHAR'),
    col('level', 'DOUBLE'),
    col('state', 'VARCHAR'),
    col('superseded', 'BOOLEAN'),
    col('missing', 'BOOLEAN'),
    col('seed', 'BIGINT'),
    col('code_commit', 'VARCHAR'),
    col('started_at', 'VARCHAR'),
    col('finished_at', 'VARCHAR'),
    col('example_count', 'BIGINT'),
    col('source_path', 'VARCHAR'),
    col('source_sha256', 'VARCHAR'),
    col('expect', 'VARCHAR'),
    col('compare_to', 'VARCHAR[]'),
    col('settings', 'VARCHAR'),
    col('metrics', 'VARCHAR'),
    col('metric_definitions', 'VARCHAR'),
    col('warnings', 'VARCHAR[]'),
  ],
};

export const EXAMPLES: TableSpec = {
  name: 'examples',
  columns: [
    col('run_id', 'VARCHAR'),
    col('example_id', 'VARCHAR'),
    col('input', 'VARCHAR'),
    col('output', 'VARCHAR'),
    col('target', 'VARCHAR'),
    col('error', 'VARCHAR'),
    col('fields', 'VARCHAR'),
    col('input_hash', 'VARCHAR'),
    col('output_hash', 'VARCHAR'),
    col('fields_hash', 'VARCHAR'),
  ],
};

export const COMPARISONS: TableSpec = {
  name: 'comparisons',
  columns: [
    col('experiment_id', 'VARCHAR'),
    col('report_key', 'VARCHAR'),
    col('pair', 'INTEGER'),
    col('reference_condition', 'VARCHAR'),
    col('reference_run_id', 'VARCHAR'),
    col('candidate_condition', 'VARCHAR'),
    col('candidate_run_id', 'VARCHAR'),
    col('criteria', 'VARCHAR[]'),
    col('examples', 'BIGINT'),
  ],
};

export const COMPARISON_EXAMPLES: TableSpec = {
  name: 'comparison_examples',
  columns: [
    col('experiment_id', 'VARCHAR'),
    col('pair', 'INTEGER'),
    col('example_id', 'VARCHAR'),
    col('side', 'VARCHAR'),
    col('in_reference', 'BOOLEAN'),
    col('in_candidate', 'BOOLEAN'),
    col('input_mismatch', 'BOOLEAN'),
    col('output_changed', 'BOOLEAN'),
    col('behavior_changed', 'BOOLEAN'),
  ],
};

export const COMPARISON_CRITERIA: TableSpec = {
  name: 'comparison_criteria',
  columns: [
    col('experiment_id', 'VARCHAR'),
    col('pair', 'INTEGER'),
    col('example_id', 'VARCHAR'),
    col('criterion', 'VARCHAR'),
    col('class', 'VARCHAR'),
    col('difference', 'DOUBLE'),
  ],
};

export const PARQUET_TABLES: readonly TableSpec[] = [
  EXPERIMENTS,
  CONDITIONS,
  RUNS,
  EXAMPLES,
  COMPARISONS,
  COMPARISON_EXAMPLES,
  COMPARISON_CRITERIA,
];
