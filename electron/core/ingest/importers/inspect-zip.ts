import { constants } from 'node:buffer';
import { readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import { fromBuffer, open, type Entry, type ZipFile, type ZipFileOptions } from 'yauzl';
import { describeFsError, parsePythonJson } from '../read';
import { ImportProblem, type ImportContext } from '../types';
import { ExpandsBeyond, unzstd, ZSTD_METHOD } from './inspect-zstd';

const MAX_ENTRY_BYTES = 2 * 1024 ** 3;
/** Small entries may compress extremely well (runs of spaces in JSON); only big ones are bombs. */
const RATIO_FLOOR_BYTES = 10 * 1024 ** 2;
const MAX_RATIO = 200;

function unreadable(error: unknown): ImportProblem {
  const code = error && typeof error === 'object' && 'code' in error ? error.code : null;
  const reason =
    typeof code === 'string' && /^E[A-Z]+$/.test(code)
      ? describeFsError(error)
      : error instanceof Error
        ? error.message
        : String(error);
  return new ImportProblem(`not a readable .eval archive: ${reason}`, 'inspect');
}

/** A damaged entry: callers may skip one bad sample, but never a zip bomb or a corrupt archive. */
export class BrokenEntry extends ImportProblem {}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  return bytes < 1024 ** 2
    ? `${Math.ceil(bytes / 1024)} KB`
    : `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

function beyondDeclared(name: string, declared: number): ImportProblem {
  return new ImportProblem(
    `${name} expands beyond the ${size(declared)} it declares: refused as corrupt or a possible zip bomb.`,
    'inspect',
  );
}

/** Archives up to this size are read whole: per-entry file reads cost more than the inflating. */
const IN_MEMORY_BYTES = 256 * 1024 ** 2;

/** The declared sizes must pass before anything is inflated. */
function checkExpansion(what: string, bytes: number, compressed: number): void {
  if (bytes > MAX_ENTRY_BYTES) {
    throw new ImportProblem(
      `${what} would expand to more than 2 GiB: refused as a possible zip bomb.`,
      'inspect',
    );
  }
  if (bytes > RATIO_FLOOR_BYTES && bytes > compressed * MAX_RATIO) {
    throw new ImportProblem(
      `${what} would expand more than ${MAX_RATIO}:1 (${size(compressed)} to ${size(bytes)}): refused as a possible zip bomb.`,
      'inspect',
    );
  }
}

/**
 * Read-only view of a zip whose entries are read by name, one at a time. Sizes in a zip are
 * claims: an entry is inflated with its declared size as a hard output limit, after that size
 * has passed the bomb checks, so a lying entry stops at the limit instead of filling memory.
 */
export class ZipArchive {
  private inflated = 0;
  private consumed = 0;
  private byDirectory: Map<string, string[]> | null = null;

  private constructor(
    private readonly zip: ZipFile,
    private readonly entries: Map<string, Entry>,
    private readonly ctx: ImportContext,
  ) {}

  static async open(path: string, ctx: ImportContext): Promise<ZipArchive> {
    const options = { lazyEntries: true, autoClose: false, validateEntrySizes: false };
    const zip = await (async () => {
      const { size } = await stat(path);
      const bytes = size <= IN_MEMORY_BYTES ? await readFile(path, { signal: ctx.signal }) : null;
      return new Promise<ZipFile>((resolve, reject) => {
        const done = (error: Error | null, file: ZipFile) =>
          error ? reject(error) : resolve(file);
        if (bytes) fromBuffer(bytes, options, done);
        else open(path, options, done);
      });
    })().catch((error: unknown) => {
      ctx.signal.throwIfAborted();
      throw unreadable(error);
    });
    const entries = new Map<string, Entry>();
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on('entry', (entry: Entry) => {
          if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
          zip.readEntry();
        });
        zip.once('end', resolve);
        zip.once('error', reject);
        zip.readEntry();
      });
    } catch (error) {
      zip.close();
      throw unreadable(error);
    }
    // Later failures arrive through openReadStream and its stream; this keeps a stray
    // 'error' event from becoming an uncaught exception in the worker.
    zip.on('error', () => undefined);
    return new ZipArchive(zip, entries, ctx);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Entry names directly inside `dir`; indexed once, as chunked logs ask for every sample. */
  listDirectory(dir: string): string[] {
    if (!this.byDirectory) {
      this.byDirectory = new Map();
      for (const name of this.entries.keys()) {
        const parent = name.slice(0, Math.max(0, name.lastIndexOf('/')));
        const list = this.byDirectory.get(parent);
        if (list) list.push(name);
        else this.byDirectory.set(parent, [name]);
      }
    }
    return this.byDirectory.get(dir) ?? [];
  }

  private async compressedBytes(entry: Entry): Promise<Buffer> {
    // yauzl 3's way to get any entry's bytes as stored, whatever the method (its older
    // `decompress: false` is refused for stored and zstd entries); @types/yauzl predates it.
    const raw = { decodeFileData: false } as unknown as ZipFileOptions;
    const stream = await new Promise<Readable>((resolve, reject) =>
      this.zip.openReadStream(entry, raw, (error, readable) =>
        error ? reject(error) : resolve(readable),
      ),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async readText(name: string): Promise<string> {
    this.ctx.signal.throwIfAborted();
    const entry = this.entries.get(name);
    if (!entry) throw new ImportProblem(`${name} is missing from the .eval archive.`, 'inspect');
    if (entry.isEncrypted()) {
      throw new ImportProblem(`${name} is encrypted; Pairwise cannot read it.`, 'inspect');
    }
    const declared = entry.uncompressedSize;
    checkExpansion(name, declared, entry.compressedSize);
    checkExpansion('the archive as a whole', this.inflated + declared, this.zip.fileSize);
    if (declared > constants.MAX_STRING_LENGTH) {
      throw new ImportProblem(
        `${name} is too large to read (${size(declared)}, over ${size(constants.MAX_STRING_LENGTH)} of JSON).`,
        'inspect',
      );
    }
    const method = entry.compressionMethod;
    if (method !== 0 && method !== 8 && method !== ZSTD_METHOD) {
      throw new BrokenEntry(
        `${name} uses zip compression method ${method}; only stored, deflate and zstd entries can be read.`,
        'inspect',
      );
    }

    let data: Buffer;
    try {
      const packed = await this.compressedBytes(entry);
      data =
        method === 0
          ? packed
          : method === 8
            ? inflateRawSync(packed, { maxOutputLength: Math.max(1, declared) })
            : unzstd(packed, declared);
    } catch (error) {
      const code = error && typeof error === 'object' && 'code' in error ? error.code : null;
      if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof ExpandsBeyond) {
        throw beyondDeclared(name, declared);
      }
      // The directory was readable, so only this entry is damaged; callers may skip a sample.
      throw new BrokenEntry(`${unreadable(error).message} (in ${name})`, 'inspect');
    }
    if (data.length > declared) throw beyondDeclared(name, declared);
    if (data.length < declared) {
      throw new BrokenEntry(
        `not a readable .eval archive: ${name} is shorter than it declares (${data.length} of ${declared} bytes)`,
        'inspect',
      );
    }
    this.inflated += data.length;
    this.consumed += entry.compressedSize;
    this.ctx.onBytes?.(this.consumed);
    return data.toString('utf8');
  }

  async readJson(name: string): Promise<unknown> {
    const text = await this.readText(name);
    try {
      return parsePythonJson(text, name);
    } catch (error) {
      throw error instanceof ImportProblem ? new BrokenEntry(error.message, 'inspect') : error;
    }
  }

  close(): void {
    this.zip.close();
  }
}
