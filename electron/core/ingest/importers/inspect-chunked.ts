import { noAttachments, outputText, type Resolve } from './inspect-common';
import { isRecord } from './json-values';
import { BrokenEntry, type ZipArchive } from './inspect-zip';

/**
 * Chunked samples (Inspect `log/_recorders/chunked/`; see docs/formats-inspect.md): a sample lives under
 * `samples/{id}_epoch_{epoch}/` as a shell `sample.json` plus index-addressed sequences
 * (`messages/{start}.json`, `attachments/{start}.json`, events, calls), each chunk named by the
 * index of its first item. The shell has everything but messages, events, metadata and
 * attachments; its strings may be `attachment://<index>` references into the attachments
 * sequence, and its final conversation is `message_refs`, `[start, end)` ranges into messages.
 */

const SHELL = '/sample.json';
const INDEX_REF = /^attachment:\/\/(\d+)$/;

/** `samples/x_epoch_1/sample.json` → `samples/x_epoch_1`, for every chunked sample. */
export function chunkedPrefixes(names: string[]): string[] {
  return names
    .filter((name) => name.startsWith('samples/') && /_epoch_\d+\/sample\.json$/.test(name))
    .map((name) => name.slice(0, -SHELL.length));
}

function chunkStarts(archive: ZipArchive, prefix: string, sequence: string): number[] {
  const dir = `${prefix}/${sequence}`;
  return archive
    .listDirectory(dir)
    .map((name) => /^(\d+)\.json$/.exec(name.slice(dir.length + 1))?.[1])
    .filter((stem) => stem !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

async function readChunk(
  archive: ZipArchive,
  prefix: string,
  sequence: string,
  start: number,
): Promise<unknown[]> {
  const name = `${prefix}/${sequence}/${start}.json`;
  const items = await archive.readJson(name);
  if (!Array.isArray(items)) {
    throw new BrokenEntry(`${name} is not a list of ${sequence}.`, 'inspect');
  }
  return items;
}

function collectRefs(value: unknown, into: Set<number>): void {
  if (typeof value === 'string') {
    const match = INDEX_REF.exec(value);
    if (match) into.add(Number(match[1]));
  } else if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, into);
  } else if (isRecord(value)) {
    for (const item of Object.values(value)) collectRefs(item, into);
  }
}

/** Only the attachment chunks that hold a referenced index are inflated. */
async function attachmentsResolver(
  archive: ZipArchive,
  prefix: string,
  wanted: Set<number>,
): Promise<Resolve> {
  if (wanted.size === 0) return noAttachments;
  const starts = chunkStarts(archive, prefix, 'attachments');
  const chunks = new Map<number, unknown[]>();
  const texts = new Map<number, string>();
  for (const index of wanted) {
    const start = starts.filter((s) => s <= index).pop();
    if (start === undefined) continue;
    let chunk = chunks.get(start);
    if (!chunk) {
      chunk = await readChunk(archive, prefix, 'attachments', start);
      chunks.set(start, chunk);
    }
    const text = chunk[index - start];
    if (typeof text === 'string') texts.set(index, text);
  }
  return (text) => {
    const match = INDEX_REF.exec(text);
    return match ? (texts.get(Number(match[1])) ?? text) : text;
  };
}

/**
 * The shell as an EvalSample-like object with its final conversation restored, and a resolver
 * for the references in it. The messages sequence is read only when the output text is not in
 * the shell, since it is the bulk of a long agent transcript.
 */
export async function readChunkedSample(
  archive: ZipArchive,
  prefix: string,
): Promise<{ sample: Record<string, unknown>; resolve: Resolve }> {
  const shellName = `${prefix}${SHELL}`;
  const shell = await archive.readJson(shellName);
  if (!isRecord(shell)) throw new BrokenEntry(`${shellName} is not a sample.`, 'inspect');

  const messages: unknown[] = [];
  if (!outputText(shell.output, noAttachments) && Array.isArray(shell.message_refs)) {
    let pool: unknown[] = [];
    for (const start of chunkStarts(archive, prefix, 'messages')) {
      pool = pool.concat(await readChunk(archive, prefix, 'messages', start));
    }
    for (const range of shell.message_refs) {
      if (Array.isArray(range) && typeof range[0] === 'number' && typeof range[1] === 'number') {
        for (const message of pool.slice(range[0], range[1])) messages.push(message);
      }
    }
  }
  const wanted = new Set<number>();
  collectRefs([shell.input, shell.target, shell.output, messages], wanted);
  const resolve = await attachmentsResolver(archive, prefix, wanted);
  return { sample: { ...shell, messages }, resolve };
}
