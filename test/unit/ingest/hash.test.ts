import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256FileBytes, sha256Files } from '../../../electron/core/ingest/hash';
import { tempDir } from '../../fixtures/tmp';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

describe("a source file's hash", () => {
  it('is the same from bytes already read as streamed from disk, so a rescan sees no change', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, 'run.json');
    fs.writeFileSync(file, JSON.stringify({ examples: ['é', 'x'.repeat(3_000_000)] }));
    expect(sha256FileBytes(file, fs.readFileSync(file))).toBe(await sha256Files([file]));
  });
});
