import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { describeZodError } from '../../shared/contract';
import type { PairwiseService } from '../core/service';
import { receivedRevisionSchema, runExperiment, storeReceivedRevision } from '../core/sync/receive';
import type { Session } from './access';
import { readBody } from './api';
import type { ComparesAfterSync } from './compare-after-sync';
import { READ_ONLY_MESSAGE } from './permissions';
import { sendJson } from './responses';

/**
 * The sync protocol (docs/sync.md) served by a lab server, so a desktop app can push its runs
 * and findings here with an editor's token as its API key. A run record is kept as a MechLens
 * run file under `<data folder>/lab-sync/` and indexed from there; a finding revision is
 * stored in the library. Both are idempotent: a repeat is answered like the first time and
 * stores nothing.
 */

export interface SyncReceiver {
  service: PairwiseService;
  /** Where links in answers point: the public URL, or the loopback address. */
  baseUrl: string;
  maxBody: number;
  compares: ComparesAfterSync;
}

/** A run record may hold a million examples: it is streamed to disk, up to this size. */
const MAX_RUN_BYTES = 4 * 1024 ** 3;

/** Answers in FastAPI's shape, `{detail}`, which the sync client reads. */
function detail(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { detail: message });
}

function runsFolder(service: PairwiseService): string {
  return path.join(service.dataDir, 'lab-sync', '.mechlens', 'runs');
}

/** One file per idempotency key; its name is a hash, so no key can name a path. */
function runFile(service: PairwiseService, key: string): string {
  return path.join(runsFolder(service), `${createHash('sha256').update(key).digest('hex')}.json`);
}

async function receiveBody(req: IncomingMessage, target: string): Promise<boolean> {
  let received = 0;
  let tooLarge = false;
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > MAX_RUN_BYTES && !tooLarge) {
      tooLarge = true;
      req.destroy();
    }
  });
  try {
    await pipeline(req, fs.createWriteStream(target));
    return true;
  } catch (error) {
    if (tooLarge) return false;
    throw error;
  }
}

async function receiveRun(
  receiver: SyncReceiver,
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
): Promise<void> {
  const { service } = receiver;
  const answer = { id: key, url: `${receiver.baseUrl}/#/library` };
  const file = runFile(service, key);
  if (runExperiment(service.db, key) !== null) return sendJson(res, 200, answer);
  // A file without its run is one a crash kept from being indexed: it is indexed now, and the
  // repeated body is not read.
  const known = fs.existsSync(file);
  if (!known) {
    // Written beside the scanned folder and moved in whole, so no index pass reads half a file.
    const incoming = path.join(service.dataDir, 'lab-sync', 'incoming');
    fs.mkdirSync(incoming, { recursive: true });
    fs.mkdirSync(runsFolder(service), { recursive: true });
    const temp = path.join(incoming, `${randomBytes(8).toString('hex')}.json`);
    try {
      if (!(await receiveBody(req, temp)))
        return detail(res, 413, 'The run record is larger than 4 GB.');
      fs.renameSync(temp, file);
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
  // The folder, not the file: a pass over it forgets a file removed below, and skips the
  // unchanged files of earlier pushes by their size and time.
  const stats = await service.index([runsFolder(service)]);
  const problem = stats.problems.find((p) => p.path === file);
  if (problem) {
    fs.rmSync(file, { force: true });
    await service.index([runsFolder(service)]);
    return detail(res, 422, `The run record could not be imported: ${problem.message}`);
  }
  const experimentId = runExperiment(service.db, key);
  if (experimentId !== null) receiver.compares.received(experimentId);
  sendJson(res, known ? 200 : 201, answer);
}

async function receiveFinding(
  receiver: SyncReceiver,
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
): Promise<void> {
  const text = await readBody(req, receiver.maxBody);
  if (text === null) return detail(res, 413, 'The finding is too large.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return detail(res, 400, 'The body is not JSON.');
  }
  const parsed = receivedRevisionSchema.safeParse(value);
  if (!parsed.success) return detail(res, 422, describeZodError(parsed.error));
  const revision = parsed.data;
  const expected = `${revision.finding_id}:${revision.revision}`;
  if (key !== expected || revision.id !== expected)
    return detail(res, 422, `The Idempotency-Key and id must both be "${expected}".`);
  const outcome = storeReceivedRevision(receiver.service.db, revision);
  if (outcome === 'conflict')
    return detail(
      res,
      409,
      `This server holds a different revision ${revision.revision} of finding ${revision.finding_id}.`,
    );
  if (outcome === 'stored') receiver.service.changed();
  const query = new URLSearchParams({ exp: revision.experiment_id, finding: revision.finding_id });
  sendJson(res, outcome === 'stored' ? 201 : 200, {
    id: key,
    url: `${receiver.baseUrl}/#/findings?${query.toString()}`,
  });
}

/** `POST /api/v1/runs` and `POST /api/v1/findings`, once the token was recognised. */
export async function receiveSync(
  receiver: SyncReceiver,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  session: Session,
): Promise<void> {
  const kind =
    url.pathname === '/api/v1/runs'
      ? 'run'
      : url.pathname === '/api/v1/findings'
        ? 'finding'
        : null;
  if (!kind) return detail(res, 404, 'Not found.');
  if (req.method !== 'POST') return detail(res, 405, 'Use POST.');
  if (session.readOnly)
    return detail(res, 403, `${READ_ONLY_MESSAGE}: ${session.user} may not push to this server.`);
  if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
    return detail(res, 415, 'Send JSON.');
  const header = req.headers['idempotency-key'];
  const key = typeof header === 'string' ? header.trim() : '';
  if (!key || key.length > 2100) return detail(res, 400, 'Idempotency-Key is required.');
  return kind === 'run'
    ? receiveRun(receiver, req, res, key)
    : receiveFinding(receiver, req, res, key);
}
