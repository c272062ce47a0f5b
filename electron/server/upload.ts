import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/** A dropped file must look like a run file: nothing else is worth keeping. */
const allowed = /\.(json|jsonl|csv|eval|zst)$/i;
const maxBytes = 4 * 1024 ** 3;

export class UploadError extends Error {}

const maxDepth = 32;

/**
 * A dropped file's path relative to what was dropped (`run-a/run.json`), as safe segments:
 * `.` and `..` and empty parts are dropped and every other character outside a small set is
 * replaced, so two run folders that each hold a run.json stay two files.
 */
function relativeSegments(raw: string): string[] {
  return raw
    .split(/[/\\]+/)
    .filter((part) => part !== '' && part !== '.' && part !== '..')
    .map((part) => part.replace(/[^\w.@ -]/g, '_').slice(0, 200))
    .slice(-maxDepth);
}

/**
 * Writes one uploaded file into `<dataDir>/uploads/<batch>/<relative path>`. The batch is one
 * safe segment and the path is made of safe segments, so an upload can never land outside that
 * folder, and the folders the user dropped keep their structure.
 */
export async function receiveUpload(
  req: IncomingMessage,
  dataDir: string,
  url: URL,
): Promise<string> {
  const batch = (url.searchParams.get('batch') ?? '').replace(/[^\w-]/g, '').slice(0, 64);
  const segments = relativeSegments(url.searchParams.get('name') ?? '');
  const name = segments[segments.length - 1] ?? '';
  if (!batch || !name || name.startsWith('.'))
    throw new UploadError('An upload needs a batch and a file name.');
  if (!allowed.test(name))
    throw new UploadError(`${name} is not a run file Pairwise reads (.json, .jsonl, .csv, .eval).`);
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new UploadError(`${name} is larger than 4 GB.`);
  const folder = path.join(dataDir, 'uploads', batch);
  const target = path.join(folder, ...segments);
  if (!target.startsWith(folder + path.sep))
    throw new UploadError('That file name is not allowed.');
  fs.mkdirSync(path.dirname(target), { recursive: true });
  let received = 0;
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) req.destroy(new UploadError(`${name} is larger than 4 GB.`));
  });
  await pipeline(req, fs.createWriteStream(target));
  return folder;
}
