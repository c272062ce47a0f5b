import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../db/open';
import {
  indexUnit,
  whenWritable,
  type IndexTask,
  type IndexUnitResult,
} from '../ingest/index-unit';
import type { IndexStore } from '../ingest/store';
import { forgetCopies, registerCopies } from '../ingest/location';
import { ImportProblem } from '../ingest/types';
import { fetchUnit } from './s3-fetch';
import { unitEtag, unitSize, type RemoteUnit } from './s3-objects';

/**
 * One object-store unit in an index worker: its objects are streamed to a temporary folder,
 * indexed there by the same code as a unit on disk (stored under its s3:// address), and the
 * copies removed. The copy costs one more write and read of the unit's bytes and, while it is
 * indexed, its size on the temporary disk (at most one unit per index worker).
 */
export async function indexRemoteUnit(
  task: IndexTask & { remote: RemoteUnit },
  store: IndexStore,
  db: Db,
  signal: AbortSignal,
  onBytes: (bytes: number) => void,
): Promise<IndexUnitResult> {
  const { unit, remote } = task;
  const listed = remote.objects;
  const stat = {
    size: unitSize(listed),
    mtimeMs: Math.max(0, ...listed.map((o) => o.lastModifiedMs)),
  };
  let dir: string | null = null;
  try {
    let fetched;
    try {
      dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'pairwise-s3-'));
      // The copies sit at <dir>/<bucket>/<key>: 's3:/' + '/<bucket>/<key>' is their address.
      registerCopies(dir, 's3:/');
      fetched = await fetchUnit(unit, remote, dir, signal, onBytes);
    } catch (error) {
      if (signal.aborted) throw error;
      const message =
        error instanceof ImportProblem
          ? error.message
          : `could not copy the object to a temporary file in ${os.tmpdir()} (${error instanceof Error ? error.message : String(error)})`;
      const record = { path: unit.path, folder: task.folder, stat, sha256: null };
      await whenWritable(
        () => store.writeFailed({ ...record, importer: null, importerVersion: null }, message),
        signal,
      );
      return { status: 'failed', stat, message, writeSeconds: 0, lockSeconds: 0, commitSeconds: 0 };
    }
    const result = await indexUnit({ ...task, unit: fetched.unit }, store, signal);
    if (result.status !== 'unavailable') {
      // After the unit's own transaction: were this lost, the next pass would only read the
      // unit again, never keep a changed one.
      await whenWritable(
        () =>
          db
            .prepare(
              `UPDATE sources SET etag = ?, sha256 = CASE WHEN sha256 IS NULL THEN NULL ELSE ? END
                WHERE path = ?`,
            )
            .run(unitEtag(fetched.etags.map((etag) => ({ etag }))), fetched.sha256, unit.path),
        signal,
      );
    }
    return result;
  } finally {
    if (dir !== null) {
      forgetCopies(dir);
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }
}
