import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { logFile } from '../../electron/core/log';
import { FolderWatcher } from '../../electron/core/watcher';
import { writeFile } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

async function logLines(dir: string, wanted: RegExp): Promise<Record<string, unknown>[]> {
  // The file stream writes asynchronously: wait until the wanted entry has landed.
  for (let i = 0; i < 100; i++) {
    const file = logFile(dir);
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (wanted.test(text))
      return text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the log never said ${String(wanted)}`);
}

describe('the core log', () => {
  it('says what failed: each failed source and the index pass, in <data>/pairwise-logs/pairwise.log', async () => {
    harness = makeService();
    const bad = writeFile(harness.dir, 'runs/.mechlens/runs/bad.json', '{"project": "p", "exa');
    await harness.service.index([path.dirname(bad)]);
    // The job's end is the last of the three entries written.
    const lines = await logLines(harness.dir, /job finished/);
    expect(lines.find((l) => l.msg === 'source failed')).toMatchObject({ path: bad });
    expect(lines.find((l) => l.msg === 'index pass')).toMatchObject({
      sources: { scanned: 1, failed: 1 },
    });
    expect(lines.find((l) => l.msg === 'job finished')).toMatchObject({ kind: 'index' });
  });

  it('a watcher error becomes a problem and a log entry instead of vanishing', async () => {
    const seen: [string, string][] = [];
    const watcher = new FolderWatcher(
      () => undefined,
      (folder, error) => seen.push([folder, error.message]),
    );
    harness = makeService();
    watcher.add(harness.dir);
    const entry = (
      watcher as unknown as { watchers: Map<string, { watcher: NodeJS.EventEmitter }> }
    ).watchers;
    entry.get(harness.dir)!.watcher.emit('error', new Error('EMFILE: too many open files'));
    expect(seen).toEqual([[harness.dir, 'EMFILE: too many open files']]);
    await watcher.close();

    (harness.service as unknown as { watchFailed(f: string, e: Error): void }).watchFailed(
      '/data/runs',
      new Error('EACCES: permission denied'),
    );
    const problems = await harness.service.handlers['library:problems']({});
    expect(problems[0]).toMatchObject({ path: '/data/runs', importer: 'watcher' });
    expect(problems[0]!.message).toMatch(/can no longer watch this folder .*EACCES/);
    const lines = await logLines(harness.dir, /folder watch failed/);
    expect(lines.find((l) => l.msg === 'folder watch failed')).toMatchObject({
      folder: '/data/runs',
    });
  });
});
