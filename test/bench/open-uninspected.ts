/**
 * The open as a user's browser runs it, beside the session's. Playwright enables DevTools'
 * `Runtime` domain on every page it drives, and with it V8's inspector captures a detailed stack
 * for every `Error` the page creates: V8 then parses again each large function on the stack for
 * its source positions. React DOM creates five errors as it loads, inside its module's wrapper
 * and the entry chunk, so under Playwright its evaluation took 45–100 ms of CPU here, where a
 * page no DevTools session is attached to takes 14–31 ms (docs/benchmarks.md, "React DOM's
 * evaluation under an inspector"). This step opens the app in a page created from the browser's
 * own session, which Playwright never attaches to, and reads its long tasks from a trace.
 */

import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import type { Interaction } from './phase-renderer';

/** Long enough for the library's first render and the idle loading of the other views. */
const OPEN_MS = 10_000;
const LONG_TASK_US = 50_000;

export interface TraceEvent {
  name: string;
  ph?: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { data?: { url?: string; isMainFrame?: boolean; requestId?: string } };
}

export interface UninspectedOpen {
  /** The tasks a long-task observer would have seen: wall durations in ms. */
  longTasksMs: number[];
  /** From the commit until the last API request the page made ended (the event stream aside). */
  seconds: number;
}

/**
 * Tasks over 50 ms on the main thread of the renderer that committed `url`, after the commit
 * (the commit's own task runs before the page has a document to observe it).
 */
export function readOpen(events: TraceEvent[], url: string): UninspectedOpen {
  const commit = events.find(
    (e) =>
      e.name === 'CommitLoad' &&
      e.args?.data?.isMainFrame &&
      new URL(e.args.data.url ?? 'about:blank').href === new URL(url).href,
  );
  if (!commit) throw new Error(`the trace has no commit of ${url}`);
  const onThread = (e: TraceEvent) => e.pid === commit.pid && e.tid === commit.tid;
  const longTasksMs = events
    .filter(
      (e) =>
        e.name === 'ThreadControllerImpl::RunTask' &&
        e.ph === 'X' &&
        onThread(e) &&
        e.ts > commit.ts &&
        (e.dur ?? 0) > LONG_TASK_US,
    )
    .map((e) => e.dur! / 1000);
  // A request's end names only its id; its start names the address.
  const api = `${new URL(url).origin}/api/`;
  const apiRequests = new Set(
    events
      .filter((e) => e.name === 'ResourceSendRequest')
      .filter((e) => e.args?.data?.url?.startsWith(api) && !e.args.data.url.includes('/api/events'))
      .map((e) => e.args!.data!.requestId),
  );
  const ends = events
    .filter((e) => e.name === 'ResourceFinish' && apiRequests.has(e.args?.data?.requestId))
    .map((e) => e.ts);
  const last = Math.max(commit.ts, ...ends);
  return { longTasksMs, seconds: (last - commit.ts) / 1e6 };
}

/** `traceFile`, if named, receives the trace, for DevTools' Performance panel. */
export async function openUninspected(
  browser: Browser,
  url: string,
  traceFile?: string,
): Promise<Interaction> {
  const cdp = await browser.newBrowserCDPSession();
  const events: TraceEvent[] = [];
  // The protocol's types call trace events maps of strings; their numbers are numbers.
  cdp.on('Tracing.dataCollected', ({ value }) =>
    events.push(...(value as unknown as TraceEvent[])),
  );
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,toplevel,v8',
    transferMode: 'ReportEvents',
  });
  // In the browser's default context, which Playwright's launch leaves unattached.
  const { targetId } = await cdp.send('Target.createTarget', { url });
  await new Promise((resolve) => setTimeout(resolve, OPEN_MS));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  await complete;
  await cdp.send('Target.closeTarget', { targetId });
  await cdp.detach();
  if (traceFile) fs.writeFileSync(traceFile, JSON.stringify({ traceEvents: events }));
  const { longTasksMs, seconds } = readOpen(events, url);
  return {
    label: 'open the app in a page no DevTools session is attached to (long tasks from a trace)',
    seconds,
    longTasks: longTasksMs.length,
    longestMs: Math.max(0, ...longTasksMs),
    totalMs: longTasksMs.reduce((a, b) => a + b, 0),
  };
}
