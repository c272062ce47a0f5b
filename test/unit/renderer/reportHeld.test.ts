import { afterAll, describe, expect, it, vi } from 'vitest';
import { readReport } from '../../../electron/core/compare/store';
import type { Db } from '../../../electron/core/db/open';
import { cachedReportView } from '../../../shared/report-view';

const replies: string[] = [];
vi.stubGlobal('window', {
  location: { href: 'http://127.0.0.1/?token=t' },
  history: { replaceState: () => undefined },
});
vi.stubGlobal('sessionStorage', { setItem: () => undefined, getItem: () => 't' });
/** The reply arrives in small pieces, so the head spans several. */
function chunked(text: string): Response {
  const bytes = new TextEncoder().encode(text);
  return new Response(
    new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 5) controller.enqueue(bytes.slice(i, i + 5));
        controller.close();
      },
    }),
  );
}
vi.stubGlobal('fetch', () => Promise.resolve(chunked(replies.shift()!)));

const { HELD, requestUnlessHeld } = await import('../../../renderer/api');
const { reportHead } = await import('../../../renderer/sync');

/** What compare:report answers for a report stored as `json` at `createdAt`. */
function stored(key: string, createdAt: string, json: string) {
  // A report of no pairs: no pair files to check.
  const db = {
    prepare: () => ({ get: () => ({ id: 1, report: json, created_at: createdAt }), all: () => [] }),
  };
  return cachedReportView(readReport(db as unknown as Db, key)!);
}
/** The parts of a report with pairs that the view reads (the rest passes through). */
const REPORT_WITH_PAIRS = JSON.stringify({
  comparisons: [
    {
      coverage: { paired: 2, only_reference: ['c'], only_candidate: [], input_mismatch: [] },
      examples: { behavior_changed: ['a'], output_changed: ['a', 'b'] },
      metrics: [],
    },
  ],
});
/** The browser host's reply: the dispatcher's result, serialized as the server sends it. */
const reply = (value: unknown) => JSON.stringify({ ok: true, value });

afterAll(() => {
  vi.unstubAllGlobals();
});

describe('a comparison report the renderer holds already', () => {
  const held = stored('k1', '2026-12-02 00:00:00', REPORT_WITH_PAIRS);
  const settings = { experimentId: 'exp-1' };

  it('is recognised from the head of the reply, and answered without the reply', async () => {
    replies.push(reply(held));
    expect(await requestUnlessHeld('compare:report', settings, reportHead(held))).toBe(HELD);
  });

  it('is replaced by a report with another key or computed at another time', async () => {
    const other = stored('k2', held.createdAt, '{"comparisons":[]}');
    const again = stored('k1', '2026-12-02 00:00:01', '{"comparisons":[]}');
    replies.push(reply(other), reply(again), reply(null));
    expect(await requestUnlessHeld('compare:report', settings, reportHead(held))).toEqual(other);
    expect(await requestUnlessHeld('compare:report', settings, reportHead(held))).toEqual(again);
    expect(await requestUnlessHeld('compare:report', settings, reportHead(held))).toBeNull();
  });

  it('is asked for as usual when none is held', async () => {
    replies.push(reply(held));
    expect(await requestUnlessHeld('compare:report', settings, null)).toEqual(held);
  });
});
