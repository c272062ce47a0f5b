import { describe, expect, it } from 'vitest';
import type { OpenedBody } from '../../../shared/findings';
import { blankBefore, revisionChanges } from '../../../renderer/features/findings/revisionDiff';

function body(patch: Partial<OpenedBody> = {}): OpenedBody {
  return {
    question: 'Does steering feature 4521 lower refusals?',
    claim: 'It lowers refusals.',
    protocol: '# Protocol\n\nModel: google/gemma-2-2b-it',
    conclusion: 'Refusals fell on this set.',
    limitations: [
      { id: 'l1', text: 'Scored by substring matching.', origin: 'candidate', status: 'accepted' },
      { id: 'l2', text: 'Temperature differs.', origin: 'candidate', status: 'proposed' },
    ],
    pinned: [],
    snapshot: {
      reportKey: 'k1',
      reportCreatedAt: '2026-09-14T09:00:00.000Z',
      settings: { experimentId: 'exp', reference: 'reference', resamples: 200 },
      runs: [],
      bootstrap: { resamples: 200, method: 'percentile' },
      report: {} as OpenedBody['snapshot']['report'],
    },
    ...patch,
  };
}

describe('what a revision changed', () => {
  it('marks the changed words of a text, and leaves unchanged fields out', () => {
    const changes = revisionChanges(
      body(),
      body({ conclusion: 'Refusals fell sharply on this set.' }),
    );
    expect(changes).toHaveLength(1);
    const change = changes[0]!;
    expect(change).toMatchObject({ kind: 'text', label: 'Conclusion' });
    if (change.kind !== 'text') throw new Error('a text change');
    expect(change.parts.filter((p) => p.added).map((p) => p.value.trim())).toEqual(['sharply']);
    expect(change.parts.some((p) => p.removed)).toBe(false);
  });

  it('lists limitations kept or dropped, pins added, and refreshed evidence', () => {
    const changes = revisionChanges(
      body(),
      body({
        limitations: [
          {
            id: 'l1',
            text: 'Scored by substring matching.',
            origin: 'candidate',
            status: 'dismissed',
          },
          { id: 'l2', text: 'Temperature differs.', origin: 'candidate', status: 'accepted' },
        ],
        pinned: [
          {
            reportKey: 'k1',
            pair: 0,
            exampleId: 'syc-0035',
            note: 'the clearest case',
            reference: null,
            candidate: { condition: 'steer-4521', runId: 'r', input: '', output: '' },
          },
        ],
        snapshot: { ...body().snapshot, reportKey: 'k2', reportCreatedAt: '2026-09-15T10:00:00Z' },
      }),
    );
    expect(changes.map((c) => c.label)).toEqual(['Limitations', 'Pinned examples', 'Evidence']);
    expect(changes[0]).toMatchObject({
      added: ['Temperature differs.'],
      removed: ['Scored by substring matching.'],
    });
    expect(changes[1]).toMatchObject({ added: ['syc-0035 · steer-4521 · the clearest case'] });
  });

  it('shows the first revision as everything written, on the same evidence', () => {
    const first = body();
    const changes = revisionChanges(blankBefore(first), first);
    expect(changes.map((c) => c.label)).toEqual([
      'Question',
      'Claim',
      'Protocol',
      'Conclusion',
      'Limitations',
    ]);
    expect(changes[4]).toMatchObject({ added: ['Scored by substring matching.'], removed: [] });
  });
});
