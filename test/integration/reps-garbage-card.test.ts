import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeRepsRun } from '../fixtures/reps';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

describe('a REPS run folder whose run.json is garbage and has no events', () => {
  it('is a problem naming run.json, not skipped in silence', async () => {
    harness = makeService();
    const dataDir = path.join(harness.dir, 'reps');
    writeRepsRun({ dataDir, runId: '20260916t120000z-000000000001' });
    const broken = writeRepsRun({
      dataDir,
      runId: '20260916t120000z-000000000002',
      events: 'none',
    });
    fs.writeFileSync(broken.files[0]!, Buffer.from([0x00, 0xff, 0x13, 0x37, 0x9b, 0x00, 0x01]));
    const stats = await harness.service.index([dataDir]);
    expect(stats.sources.imported).toBe(1);
    expect(stats.sources.failed).toBe(1);
    expect(stats.problems).toHaveLength(1);
    expect(stats.problems[0]!.path).toBe(broken.path);
    expect(stats.problems[0]!.message).toMatch(/run\.json/);
  });
});
