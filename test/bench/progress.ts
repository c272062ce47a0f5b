/**
 * Live progress for `npm run bench`: one bar a step (generating a library, each phase) on
 * stderr when it is a terminal, nothing otherwise. Phases run in child processes, which report
 * how far they have got over the IPC channel the driver opens (spawn.ts).
 */

import { MultiBar, type SingleBar } from 'cli-progress';
import type { JobProgress } from '../../shared/jobs';
import { progressLine } from '../../electron/cli/progress-line';
import type { EventHub } from '../../electron/core/events';

/** What a phase's child sends the driver. */
export interface ProgressMessage {
  type: 'bench:progress';
  progress: JobProgress;
}

export function isProgressMessage(value: unknown): value is ProgressMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'bench:progress'
  );
}

const SEND_EVERY_MS = 100;
let lastSent = 0;
let lastPhase: string | null = null;

/**
 * In a phase's child: tells the driver how far the phase has got, at once when it starts a new
 * phase and otherwise at most ten times a second.
 * A plain time gate rather than a timer, because some phases (the JSON.parse baseline) report
 * from a loop that never yields to timers. Does nothing in a process the driver did not start.
 */
export function reportProgress(progress: JobProgress): void {
  if (!process.send) return;
  if (progress.phase === lastPhase && Date.now() - lastSent < SEND_EVERY_MS) return;
  lastSent = Date.now();
  lastPhase = progress.phase;
  const message: ProgressMessage = { type: 'bench:progress', progress };
  process.send(message);
}

export interface Step {
  update(progress: JobProgress): void;
  stop(): void;
}

const REDRAW_MS = 100;

const NO_STEP: Step = { update: () => undefined, stop: () => undefined };

interface Payload {
  label: string;
  progress: JobProgress | null;
}

/**
 * The driver's display. Disabled (stderr not a terminal), steps draw nothing and log lines go
 * to stdout as plain lines; enabled, a log line printed on the same terminal goes above the bar
 * rather than through it.
 */
export class BenchProgress {
  private readonly bars: MultiBar | null;
  private shown = 0;

  constructor(
    options: { enabled: boolean; stream?: NodeJS.WritableStream } = {
      enabled: Boolean(process.stderr.isTTY),
    },
  ) {
    this.bars = options.enabled
      ? new MultiBar({
          stream: options.stream ?? process.stderr,
          format: (_options, params, payload: Payload) =>
            progressLine(payload.label, payload.progress, (Date.now() - params.startTime) / 1000),
          hideCursor: true,
          clearOnComplete: true,
          noTTYOutput: options.stream !== undefined,
        })
      : null;
  }

  /** A bar for one step, shown until `stop()`; it keeps counting seconds between updates. */
  step(label: string): Step {
    const bars = this.bars;
    if (!bars) return NO_STEP;
    const payload: Payload = { label, progress: null };
    const bar: SingleBar = bars.create(1, 0, payload);
    this.shown++;
    let stopped = false;
    let drawn = 0;
    return {
      update: (progress) => {
        bar.update(0, { label, progress });
        // Generating a library runs on this thread and starves the bars' redraw timer.
        if (Date.now() - drawn >= REDRAW_MS) {
          drawn = Date.now();
          bars.update();
        }
      },
      stop: () => {
        if (stopped) return;
        stopped = true;
        bars.remove(bar);
        if (--this.shown === 0) bars.stop();
      },
    };
  }

  /** Clears any bar and shows the cursor again (on an interrupt). */
  stop(): void {
    this.bars?.stop();
  }

  log(line: string): void {
    if (this.bars?.isActive && process.stdout.isTTY) this.bars.log(`${line}\n`);
    else console.log(line);
  }
}

/**
 * In a phase's child: forwards the core's job progress to the driver, each event named by the
 * pass the phase is in (`pass()` is read per event: "first pass", "rescan", "cold"…).
 */
export function forwardJobProgress(events: EventHub, pass: () => string): () => void {
  return events.on('job:progress', ({ progress }) =>
    reportProgress({ ...progress, phase: `${pass()}: ${progress.phase}` }),
  );
}
