import { SingleBar } from 'cli-progress';
import type { JobProgress } from '../../shared/jobs';
import type { EventHub } from '../core/events';

/** What the bar shows for one progress event: bytes when the pass knows them, else items. */
function position(progress: JobProgress): { value: number; total: number; unit: string } {
  if (progress.totalBytes && progress.bytes !== null && progress.bytes !== undefined)
    return { value: progress.bytes / 1e6, total: progress.totalBytes / 1e6, unit: 'MB' };
  return { value: progress.done, total: progress.total ?? progress.done, unit: '' };
}

/**
 * A live bar on stderr for a long CLI command (index, compare), fed by the core's job progress
 * events. Only on a terminal, and never with --json: a pipe or a script gets clean output.
 */
export function progressBar(
  events: EventHub,
  options: { enabled: boolean; stream?: NodeJS.WritableStream; label: string },
): () => void {
  if (!options.enabled) return () => undefined;
  const bar = new SingleBar({
    stream: options.stream ?? process.stderr,
    format: `${options.label} [{bar}] {percentage}% · {value}/{total}{unit} · {phase}`,
    hideCursor: true,
    clearOnComplete: true,
    formatValue: (value, _options, type) =>
      type === 'value' || type === 'total' ? String(Math.round(value * 10) / 10) : String(value),
    noTTYOutput: options.stream !== undefined,
  });
  let started = false;
  const off = events.on('job:progress', ({ progress }) => {
    const { value, total, unit } = position(progress);
    const payload = { phase: progress.phase, unit: unit ? ` ${unit}` : '' };
    if (!started) {
      bar.start(Math.max(total, 1), value, payload);
      started = true;
    } else {
      bar.setTotal(Math.max(total, 1));
      bar.update(value, payload);
    }
  });
  return () => {
    off();
    if (started) bar.stop();
  };
}
