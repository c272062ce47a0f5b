import type { Migration } from './index';

export const m001Initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  title TEXT NOT NULL,
  state TEXT NOT NULL,
  created_at TEXT NOT NULL,
  finished_at TEXT,
  error TEXT,
  progress TEXT
) STRICT;

CREATE TABLE folders (
  path TEXT PRIMARY KEY,
  watched INTEGER NOT NULL DEFAULT 1,
  added_at TEXT NOT NULL
) STRICT;

CREATE TABLE sources (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  folder TEXT,
  size INTEGER,
  mtime_ms REAL,
  sha256 TEXT,
  importer TEXT,
  importer_version TEXT,
  status TEXT NOT NULL CHECK (status IN ('imported', 'failed', 'missing', 'skipped')),
  error TEXT,
  indexed_at TEXT NOT NULL
) STRICT;

CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  source_format TEXT
) STRICT;

CREATE TABLE experiments (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id),
  name TEXT NOT NULL,
  question TEXT,
  claim TEXT,
  deviations TEXT NOT NULL DEFAULT '[]',
  reproduces TEXT,
  declared INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE runs (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  source_id INTEGER REFERENCES sources(id) ON DELETE CASCADE,
  experiment_id TEXT NOT NULL REFERENCES experiments(id),
  condition_name TEXT NOT NULL,
  role TEXT,
  series TEXT,
  level REAL,
  expect TEXT NOT NULL DEFAULT '{}',
  compare_to TEXT NOT NULL DEFAULT '[]',
  identity_hash TEXT,
  settings TEXT NOT NULL,
  format TEXT NOT NULL,
  format_version TEXT,
  path TEXT,
  started_at TEXT,
  finished_at TEXT,
  sort_time TEXT,
  state TEXT NOT NULL,
  seed INTEGER,
  code_commit TEXT,
  metrics TEXT NOT NULL DEFAULT '{}',
  metric_definitions TEXT NOT NULL DEFAULT '{}',
  provenance TEXT NOT NULL DEFAULT '{}',
  warnings TEXT NOT NULL DEFAULT '[]',
  example_count INTEGER NOT NULL DEFAULT 0,
  missing INTEGER NOT NULL DEFAULT 0,
  source_sha256 TEXT
) STRICT;
CREATE INDEX runs_experiment ON runs(experiment_id, condition_name);
CREATE INDEX runs_source ON runs(source_id);

-- Hand-made choices survive a re-index: they are keyed by run id, not by source row.
CREATE TABLE run_overrides (
  run_id TEXT PRIMARY KEY,
  role TEXT,
  condition_name TEXT,
  updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE examples (
  rowid INTEGER PRIMARY KEY,
  run_rowid INTEGER NOT NULL REFERENCES runs(rowid) ON DELETE CASCADE,
  example_id TEXT NOT NULL,
  input TEXT NOT NULL,
  output TEXT NOT NULL,
  fields TEXT NOT NULL,
  target TEXT,
  error TEXT,
  input_hash TEXT NOT NULL,
  output_hash TEXT NOT NULL,
  fields_hash TEXT NOT NULL,
  UNIQUE (run_rowid, example_id)
) STRICT;

CREATE VIRTUAL TABLE examples_fts USING fts5(
  input, output, content='examples', content_rowid='rowid', tokenize='unicode61'
);
CREATE TRIGGER examples_ai AFTER INSERT ON examples BEGIN
  INSERT INTO examples_fts(rowid, input, output) VALUES (new.rowid, new.input, new.output);
END;
CREATE TRIGGER examples_ad AFTER DELETE ON examples BEGIN
  INSERT INTO examples_fts(examples_fts, rowid, input, output) VALUES ('delete', old.rowid, old.input, old.output);
END;
`,
};
