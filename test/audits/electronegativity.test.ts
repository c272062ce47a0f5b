import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../fixtures/tmp';

const root = path.resolve(__dirname, '../..');
let cleanup = () => undefined as void;
afterEach(() => cleanup());

function audit(input?: string) {
  return spawnSync(process.execPath, [path.join(root, 'scripts/electronegativity.cjs')], {
    cwd: root,
    env: { ...process.env, ...(input ? { PAIRWISE_ENEG_INPUT: input } : {}) },
    encoding: 'utf8',
  });
}

describe('electronegativity', () => {
  it('finds nothing high or critical in the Electron code', () => {
    const result = audit();
    expect(result.stdout).toMatch(/none high or critical/);
    expect(result.status).toBe(0);
  }, 60_000);

  it('would fail on a window with node integration and no isolation (the audit can fail)', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    fs.writeFileSync(
      path.join(t.dir, 'main.js'),
      `const { BrowserWindow } = require('electron');\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });\n`,
    );
    const result = audit(t.dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/high-severity/);
  }, 60_000);
});
