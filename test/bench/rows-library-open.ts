import { secs } from './measure';
import { n, type LibraryResult } from './results';
import type { Row } from './rows';

/** The app's open over a library of many experiments, each round in a fresh page. */
export function libraryOpenRow(lib: LibraryResult): Row {
  const s = lib.spec;
  const area = `renderer long tasks, a library of ${n(s.experiments)} experiments (${lib.spec.name})`;
  const what = `open the app on ${n(s.experiments * s.runsPerExperiment)} runs in a page no DevTools session is attached to (long tasks from a trace), ${lib.libraryOpen?.interactions.length ?? 0} times`;
  const none = (result: string): Row => ({ area, what, result, target: '', met: '' });
  const result = lib.libraryOpen;
  if (!result) return none('not measured');
  const opens = result.interactions;
  if (opens.length === 0) return none(`not measured: ${result.error ?? 'no open'}`);
  const tasks = opens.map((o) => o.longTasks);
  const longest = Math.max(...opens.map((o) => o.longestMs));
  const slowest = Math.max(...opens.map((o) => o.seconds));
  return {
    ...none(
      `long tasks per open ${tasks.join(', ')}, longest ${n(longest)} ms; the library's requests done within ${secs(slowest)}` +
        (result.error ? `; stopped early: ${result.error}` : ''),
    ),
    target: 'no task > 50 ms',
    met: tasks.every((t) => t === 0) ? 'yes' : 'no',
    why: `see "Renderer long tasks at open on a real library": the cards are laid out near the window only and mount 24 per task; what is left is the open's own tasks (React DOM's evaluation, the first render), which a busy machine stretches past 50 ms.`,
  };
}
