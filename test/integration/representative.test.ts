import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listConditions, setRepresentative } from '../../electron/core/experiments';
import { writeSameModelLog } from '../fixtures/same-model-logs';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

describe('the run that stands for a condition', () => {
  it('is the latest current run, unless one is picked by hand, and the pick survives a re-index', async () => {
    harness = makeService();
    const logs = path.join(harness.dir, 'logs');
    // Two replicates of one condition: same settings, separate runs (no retry of one another).
    for (const [name, evalId, taskId, at] of [
      ['a.json', 'evalA', 't1', '2025-01-01T10:00:00Z'],
      ['b.json', 'evalB', 't2', '2025-01-01T11:00:00Z'],
    ] as const)
      writeSameModelLog(logs, name, { evalId, taskId, commit: 'aaaaaaa', startedAt: at });
    await harness.service.index([logs]);
    const only = () => listConditions(harness!.service.db, 'popularity')[0]!;
    expect(
      only()
        .runs.map((r) => r.run_id)
        .sort(),
    ).toEqual(['evalA', 'evalB']);
    expect(only().representativeRunId).toBe('evalB');

    setRepresentative(harness.service.db, 'popularity', only().name, 'evalA');
    expect(only().representativeRunId).toBe('evalA');
    await harness.service.index([logs]);
    expect(only().representativeRunId).toBe('evalA');
  });
});
