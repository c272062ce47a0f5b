import type { Job } from '../../shared/jobs';
import { byteShare, count as grouped } from '../format';

function count(done: number, total: number | null): string {
  if (total) return `${grouped(done)} / ${grouped(total)}`;
  // A phase that counts nothing yet (scanning, saving) would read "scanning 0".
  return done === 0 ? '' : grouped(done);
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** "Indexing exp1" opens with the phase "indexing"; "Indexingfoo" does not. */
function opensWith(title: string, phase: string): boolean {
  return same(title.slice(0, phase.length), phase) && /^\s/.test(title.slice(phase.length));
}

/**
 * What the status bar says of a running job, its detail aside. A job whose phase is its title
 * (archiving, preparing search, converting runs) says it once; a phase the title opens with
 * ("Indexing exp1", phase "indexing") is not said again after the dash.
 */
export function jobLine(job: Pick<Job, 'title' | 'progress'>): string {
  const { title, progress } = job;
  if (!progress) return title;
  const { phase } = progress;
  const numbers = count(progress.done, progress.total);
  const bytes = byteShare(progress).replace(/^ · /, '');
  const measured = numbers && bytes ? `${numbers} · ${bytes}` : numbers || bytes;
  if (same(phase, title)) return measured ? `${title} ${measured}` : title;
  const rest = opensWith(title, phase) ? measured : [phase, measured].filter(Boolean).join(' ');
  return rest ? `${title} — ${rest}` : title;
}
