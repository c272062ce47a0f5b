import { describe, expect, it } from 'vitest';
import { readOpen, type TraceEvent } from '../../bench/open-uninspected';

const URL_OPENED = 'http://127.0.0.1:4000/?token=abc';
const page = { pid: 7, tid: 1 };

const task = (ts: number, durMs: number, thread = page): TraceEvent => ({
  name: 'ThreadControllerImpl::RunTask',
  ph: 'X',
  ...thread,
  ts,
  dur: durMs * 1000,
});

const request = (id: string, url: string, sent: number, finished: number): TraceEvent[] => [
  { name: 'ResourceSendRequest', ...page, ts: sent, args: { data: { requestId: id, url } } },
  { name: 'ResourceFinish', ...page, ts: finished, args: { data: { requestId: id } } },
];

const commit: TraceEvent = {
  name: 'CommitLoad',
  ...page,
  ts: 1_000_000,
  args: { data: { url: URL_OPENED, isMainFrame: true } },
};

describe('the open read from a trace', () => {
  it("counts the tasks over 50 ms on the committed page's main thread, after the commit", () => {
    const open = readOpen(
      [
        task(900_000, 120), // the commit's own task, before the page could observe it
        commit,
        task(1_100_000, 60),
        task(1_200_000, 50), // not over 50 ms
        task(1_300_000, 75),
        task(1_400_000, 90, { pid: 8, tid: 1 }), // another renderer
        { ...task(1_500_000, 80), ph: 'B' },
      ],
      URL_OPENED,
    );
    expect(open.longTasksMs).toEqual([60, 75]);
  });

  it('ends the open with the last API request, the event stream and static files aside', () => {
    const open = readOpen(
      [
        commit,
        ...request('1', 'http://127.0.0.1:4000/api/library', 1_100_000, 1_400_000),
        ...request('2', 'http://127.0.0.1:4000/api/runs', 1_200_000, 2_500_000),
        ...request('3', 'http://127.0.0.1:4000/api/events', 1_300_000, 9_000_000),
        ...request('4', 'http://127.0.0.1:4000/assets/index.js', 1_050_000, 8_000_000),
      ],
      URL_OPENED,
    );
    expect(open.seconds).toBe(1.5);
  });

  it('refuses a trace without the commit of the address opened', () => {
    const elsewhere = { ...commit, args: { data: { url: 'about:blank', isMainFrame: true } } };
    expect(() => readOpen([elsewhere, task(1_100_000, 60)], URL_OPENED)).toThrow(/no commit/);
  });
});
