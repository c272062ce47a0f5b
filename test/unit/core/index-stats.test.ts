import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PairwiseService } from '../../../electron/core/service';
import { examples, writeMechlensRun } from '../../fixtures/formats';
import { tempDir } from '../../fixtures/tmp';

let cleanup = () => undefined as void;
afterEach(() => cleanup());

describe('PairwiseService.index', () => {
  it('hands each pass its stats once and keeps none behind (no map growing per pass)', async () => {
    const t = tempDir();
    const service = new PairwiseService({
      dbPath: path.join(t.dir, 'p.db'),
      host: 'cli',
      version: 'test',
    });
    cleanup = () => {
      void service.close().then(t.cleanup);
    };
    const root = path.join(t.dir, 'runs');
    writeMechlensRun(root, { id: 'ref-1', name: 'reference', examples: examples(3) });
    for (let pass = 0; pass < 3; pass++) {
      const stats = await service.index([root]);
      expect(stats.sources.scanned).toBe(1);
    }
    expect((service as unknown as { indexStats: Map<string, unknown> }).indexStats.size).toBe(0);
  });
});
