import { describe, expect, it } from 'vitest';
import type { FindingRow } from '../../../shared/findings';
import { snapshotLine } from '../../../renderer/features/findings/evidenceLine';
import { withLatestRow } from '../../../renderer/features/findings/findingRows';

describe('the line above a finding’s evidence', () => {
  it('joins the method to the resamples without a stray full stop', () => {
    const line = snapshotLine({
      runs: [
        { runId: 'a', condition: 'reference', sourceSha256: null },
        { runId: 'b', condition: 'steer', sourceSha256: null },
      ],
      reportCreatedAt: '2026-12-02T05:20:32.123Z',
      bootstrap: {
        resamples: 10_000,
        method:
          '95 % intervals: Tango score interval (two-valued outcomes). p-values: exact sign-flip permutation.',
      },
      settings: { experimentId: 'e', reference: 'reference', resamples: 10_000 },
    });
    expect(line).toBe(
      'Snapshot of 2 runs taken 2026-12-02 05:20:32 · 95 % intervals: Tango score interval (two-valued outcomes). p-values: exact sign-flip permutation · 10,000 resamples · reference reference',
    );
    expect(line).not.toContain('.,');
  });
});

describe('the finding picker’s rows', () => {
  const row = (id: string, currentRevision: number, title = id): FindingRow => ({
    id,
    experimentId: 'e',
    title,
    createdAt: '2026-12-02T05:00:00Z',
    updatedAt: '2026-12-02T05:00:00Z',
    currentRevision,
    syncState: 'pending',
  });

  it('show the open finding as its last save left it', () => {
    const rows = [row('a', 1), row('b', 4)];
    expect(withLatestRow(rows, row('a', 3, 'Renamed'))).toEqual([
      row('a', 3, 'Renamed'),
      row('b', 4),
    ]);
    expect(withLatestRow(rows, null)).toBe(rows);
  });

  it('keep a newer row the list brought (saved in another window)', () => {
    expect(withLatestRow([row('a', 5)], row('a', 3))).toEqual([row('a', 5)]);
  });
});
