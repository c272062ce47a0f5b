import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeDemoLibrary } from '../fixtures/demo-library';
import { tempDir } from '../fixtures/tmp';

let cleanup = () => undefined as void;
afterEach(() => cleanup());

describe('the shipped demo library', () => {
  it('is exactly what its generator writes (run `npm run samples` after changing the generator)', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const fresh = writeDemoLibrary(t.dir);
    const shipped = path.resolve(__dirname, '../../resources/samples');
    expect(fresh.length).toBe(6);
    for (const file of fresh) {
      const twin = path.join(shipped, path.relative(t.dir, file));
      expect(fs.readFileSync(twin, 'utf8'), twin).toBe(fs.readFileSync(file, 'utf8'));
    }
  });
});
