import type { ReportView } from '../../../shared/report-view';
import { useApp } from '../../store';

const GUESSES: Record<string, string> = {
  name: 'guessed from its name',
  earliest: 'guessed: the earliest run',
};

/**
 * Where nothing in the files declares the reference, Pairwise guessed it: every view that shows
 * a difference says so, with the way to change it.
 */
export function ReferenceNote({ report }: { report: ReportView }) {
  const setView = useApp((s) => s.setView);
  const runPair = useApp((s) => s.runPair);
  const guess = GUESSES[report.experiment.reference_basis ?? ''];
  if (runPair) {
    return (
      <p className="reference-note" role="note">
        Two runs picked in the library: <strong>{report.experiment.reference}</strong> is the
        baseline.
      </p>
    );
  }
  if (!guess) return null;
  return (
    <p className="reference-note guessed" role="note">
      Reference {guess} — <strong>{report.experiment.reference}</strong>. Nothing in the files
      declares it.{' '}
      <button className="link" onClick={() => setView('conditions')}>
        Change
      </button>
    </p>
  );
}
