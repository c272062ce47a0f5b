import { describe, expect, it } from 'vitest';
import { droppedFiles, type DroppedEntry } from '../../../renderer/features/library/droppedFiles';

function file(fullPath: string, text = '{}'): DroppedEntry {
  const name = fullPath.split('/').pop()!;
  return {
    isFile: true,
    isDirectory: false,
    name,
    fullPath,
    file: (ok) => ok(new File([text], name)),
  };
}

/** A directory whose reader hands its children out two at a time, as a real one batches. */
function dir(fullPath: string, children: DroppedEntry[]): DroppedEntry {
  return {
    isFile: false,
    isDirectory: true,
    name: fullPath.split('/').pop()!,
    fullPath,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok) => {
          const batch = children.slice(at, at + 2);
          at += batch.length;
          ok(batch);
        },
      };
    },
  };
}

describe('dropped folders', () => {
  it('keeps each file at its path under what was dropped, and only run files', async () => {
    const runA = dir('/run-a', [
      file('/run-a/run.json', 'a'),
      file('/run-a/events.jsonl'),
      dir('/run-a/workspace', [file('/run-a/workspace/notes.txt')]),
    ]);
    const runB = dir('/run-b', [file('/run-b/run.json', 'b'), file('/run-b/.hidden.json')]);
    const got = await droppedFiles([runA, runB, null], []);
    expect(got.map((f) => f.path)).toEqual([
      'run-a/run.json',
      'run-a/events.jsonl',
      'run-b/run.json',
    ]);
    expect(await got[2]!.file.text()).toBe('b');
  });

  it('falls back to the plain files when the drop gives no entries', async () => {
    const plain = new File(['{}'], 'results.json');
    expect(await droppedFiles([null], [plain])).toEqual([{ file: plain, path: 'results.json' }]);
  });
});
