import type { Migration } from './index';

export const m003Findings: Migration = {
  version: 3,
  name: 'findings',
  sql: `
-- A finding is a researcher's write-up of one experiment. Its text lives in revisions, which
-- are never updated: every save, restore or refresh appends one, so any state can be shown,
-- exported or restored later.
CREATE TABLE findings (
  id TEXT PRIMARY KEY,
  experiment_id TEXT NOT NULL,
  title TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  current_revision INTEGER NOT NULL
) STRICT;
CREATE INDEX findings_experiment ON findings(experiment_id, updated_at);

-- The evidence a revision stands on (the report, its key, the runs and their source hashes).
-- Autosave writes a revision every second or so while the evidence rarely changes, so the
-- snapshot is stored once under the sha256 of its JSON and revisions point at it.
CREATE TABLE finding_snapshots (
  key TEXT PRIMARY KEY,
  snapshot TEXT NOT NULL
) STRICT;

-- body: the finding without its snapshot (question, claim, protocol, conclusion, limitations,
-- pinned); the API joins the snapshot back in.
CREATE TABLE finding_revisions (
  finding_id TEXT NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
  revision INTEGER NOT NULL,
  saved_at TEXT NOT NULL,
  body TEXT NOT NULL,
  snapshot_key TEXT NOT NULL REFERENCES finding_snapshots(key),
  PRIMARY KEY (finding_id, revision)
) STRICT;

-- The transactional outbox: a finding revision and its outbox row are written together, and
-- sync replays rows in id order under their idempotency key. The API key is never here.
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('run', 'finding')),
  item_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  -- Runs: the record to send, fixed when enqueued (one key, one body), dropped once synced.
  -- Findings: {finding_id, revision}; revisions are immutable, so the body is built at send time.
  payload TEXT NOT NULL,
  -- Runs: the source sha256 the payload was made from, for "changed since sync".
  item_sha256 TEXT,
  state TEXT NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'synced', 'rejected', 'retrying', 'stopped')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  last_error TEXT,
  remote_url TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX outbox_state ON outbox(state, id);
CREATE INDEX outbox_item ON outbox(kind, item_id);

-- What the server has of each run: a run whose source changed since is "changed since sync"
-- (it is not re-sent under the same key; a new record gets a new run id).
CREATE TABLE sync_state (
  run_id TEXT PRIMARY KEY,
  synced_sha256 TEXT,
  synced_at TEXT NOT NULL
) STRICT;

-- Small app settings such as the sync endpoint. Secrets never go here: the host keeps them.
CREATE TABLE app_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
`,
};
