import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/** A dropped file must look like a run file: nothing else is worth keeping. */
const allowed = /\.(json|jsonl|csv|eval|zst)$/i;
const maxBytes = 4 * 1024 ** 3;

export class UploadError extends Error {}

/**
 * Writes one uploaded file into `<dataDir>/uploads/<batch>/<name>`. The batch and the name are
 * reduced to safe single path segments, so an upload can never land outside that folder.
 */
export async function receiveUpload(
  req: IncomingMessage,
  dataDir: string,
  url: URL,
): Promise<string> {
  const batch = (url.searchParams.get('batch') ?? '').replace(/[^\w-]/g, '').slice(0, 64);
  const name = path
    .basename(url.searchParams.get('name') ?? '')
    .replace(/[^\w.@ -]/g, '_')
    .slice(0, 200);
  if (!batch || !name || name.startsWith('.'))
    throw new UploadError('An upload needs a batch and a file name.');
  if (!allowed.test(name))
    throw new UploadError(`${name} is not a run file Pairwise reads (.json, .jsonl, .csv, .eval).`);
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new UploadError(`${name} is larger than 4 GB.`);
  const folder = path.join(dataDir, 'uploads', batch);
  fs.mkdirSync(folder, { recursive: true });
  const target = path.join(folder, name);
  let received = 0;
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) req.destroy(new UploadError(`${name} is larger than 4 GB.`));
  });
  await pipeline(req, fs.createWriteStream(target));
  return folder;
}
