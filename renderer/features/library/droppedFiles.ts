/**
 * The files of a drop with their paths relative to what was dropped. A dropped folder reaches
 * the page as a directory entry, not as files: walking the entries keeps `run-a/run.json` and
 * `run-b/run.json` apart (uploading `dataTransfer.files` flat made one overwrite the other).
 */

/** The parts of the File and Directory Entries API that are used here (fakeable in tests). */
export interface DroppedEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath: string;
  file?(ok: (file: File) => void, fail?: (error: unknown) => void): void;
  createReader?(): {
    readEntries(ok: (entries: DroppedEntry[]) => void, fail?: (error: unknown) => void): void;
  };
}

export interface DroppedFile {
  file: File;
  /** Relative path, `/`-separated, e.g. `run-a/events.jsonl`. */
  path: string;
}

/** What the browser host accepts (electron/server/upload.ts); anything else in a folder is left. */
const runFile = /\.(json|jsonl|csv|eval|zst)$/i;

function readAll(entry: DroppedEntry): Promise<DroppedEntry[]> {
  const reader = entry.createReader!();
  const all: DroppedEntry[] = [];
  // readEntries hands out a directory in batches (100 in Chromium) until an empty one.
  return new Promise((resolve, reject) => {
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) return resolve(all);
        all.push(...batch);
        next();
      }, reject);
    next();
  });
}

async function walk(entry: DroppedEntry, out: DroppedFile[]): Promise<void> {
  if (entry.isFile && entry.file) {
    if (!runFile.test(entry.name) || entry.name.startsWith('.')) return;
    const file = await new Promise<File>((resolve, reject) => entry.file!(resolve, reject));
    out.push({ file, path: entry.fullPath.replace(/^\/+/, '') || entry.name });
  } else if (entry.isDirectory && entry.createReader) {
    for (const child of await readAll(entry)) await walk(child, out);
  }
}

/**
 * Call with the entries taken synchronously in the drop handler (the DataTransfer is emptied
 * once it returns); `fallback` are the plain files, for a drop that gives no entries.
 */
export async function droppedFiles(
  entries: (DroppedEntry | null)[],
  fallback: File[],
): Promise<DroppedFile[]> {
  const usable = entries.filter((e): e is DroppedEntry => e !== null);
  if (usable.length === 0) return fallback.map((file) => ({ file, path: file.name }));
  const out: DroppedFile[] = [];
  for (const entry of usable) await walk(entry, out);
  return out;
}
