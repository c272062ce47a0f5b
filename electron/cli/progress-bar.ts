import { SingleBar } from 'cli-progress';
import type { JobProgress } from '../../shared/jobs';
import type { EventHub } from '../core/events';
import { progressLine } from './progress-line';

/**
 * A live bar on stderr for a long CLI command (index, compare), fed by the core's job progress
 * events. Only on a terminal, and never with --json: a pipe or a script gets clean output.
 */
export function progressBar(
  events: EventHub,
  options: { enabled: boolean; stream?: NodeJS.WritableStream; label: string },
): () => void {
  if (!options.enabled) return () => undefined;
  let latest: JobProgress | null = null;
  const bar = new SingleBar({
    stream: options.stream ?? process.stderr,
    format: (_options, params) =>
      progressLine(options.label, latest, (Date.now() - params.startTime) / 1000),
    hideCursor: true,
    clearOnComplete: true,
    noTTYOutput: options.stream !== undefined,
  });
  let started = false;
  const off = events.on('job:progress', ({ progress }) => {
    latest = progress;
    if (!started) {
      bar.start(1, 0);
      started = true;
    } else {
      bar.update(0);
    }
  });
  return () => {
    off();
    if (started) bar.stop();
  };
}
