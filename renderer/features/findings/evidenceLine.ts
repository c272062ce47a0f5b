import type { SnapshotView } from '../../../shared/findings';
import { count, counted } from '../../format';

/**
 * The line above the frozen numbers: how many runs, when, how the intervals were computed and
 * against which reference. The method is sentences ending in a full stop; the line joins its
 * parts with " · ", so that stop goes.
 */
export function snapshotLine(
  snapshot: Pick<SnapshotView, 'runs' | 'reportCreatedAt' | 'bootstrap' | 'settings'>,
): string {
  const method = snapshot.bootstrap.method.trim().replace(/\.$/, '');
  return [
    `Snapshot of ${counted(snapshot.runs.length, 'run')} taken ${snapshot.reportCreatedAt.replace('T', ' ').slice(0, 19)}`,
    method,
    `${count(snapshot.bootstrap.resamples)} resamples`,
    `reference ${snapshot.settings.reference}`,
  ].join(' · ');
}
