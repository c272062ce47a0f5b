import type { JobProgress } from '../../shared/jobs';
import { formatCount } from '../../shared/format';

/** How progress reads on a terminal: the CLI's bars and the benchmark's share this line. */

const megabytes = (bytes: number): string => formatCount(Math.round((bytes / 1e6) * 10) / 10);

function elapsed(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const minutes = Math.floor(whole / 60);
  return minutes > 0 ? `${minutes}m${String(whole % 60).padStart(2, '0')}s` : `${whole}s`;
}

/**
 * How far a pass is (0–1) when its total is known, and what it is doing, in words: bytes when
 * the pass knows them (progress inside one large file shows), else items.
 */
export function describeProgress(progress: JobProgress | null): {
  share: number | null;
  text: string;
} {
  if (!progress) return { share: null, text: 'starting' };
  const { phase, done, total, bytes, totalBytes } = progress;
  if (totalBytes && bytes !== null && bytes !== undefined) {
    const share = Math.min(1, bytes / totalBytes);
    return { share, text: `${megabytes(bytes)}/${megabytes(totalBytes)} MB · ${phase}` };
  }
  if (total !== null && total > 0)
    return {
      share: Math.min(1, done / total),
      text: `${formatCount(done)}/${formatCount(total)} · ${phase}`,
    };
  return { share: null, text: done > 0 ? `${formatCount(done)} · ${phase}` : phase };
}

const BAR_WIDTH = 24;

/**
 * One line: `Indexing [██████░░░…] 25% · 50/200 MB · reading · 1m05s`. A pass whose total is
 * unknown shows no bar, only what it is doing and for how long, so it never looks stuck at 0%.
 */
export function progressLine(
  label: string,
  progress: JobProgress | null,
  elapsedSeconds: number,
): string {
  const { share, text } = describeProgress(progress);
  const time = elapsed(elapsedSeconds);
  if (share === null) return `${label} · ${text} · ${time}`;
  const filled = Math.round(share * BAR_WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
  return `${label} [${bar}] ${Math.floor(share * 100)}% · ${text} · ${time}`;
}
