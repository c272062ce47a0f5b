import type { Comparison, Report } from '../../shared/compare/types';
import type { RequestInput, RequestName, RequestOutput } from '../../shared/contract';
import { startExperiment } from '../../shared/start-experiment';
import { dispatch } from '../core/dispatch';
import { listExperiments } from '../core/experiments';
import type { PairwiseService } from '../core/service';
import { InputError, openService, type Io } from './commands';
import {
  ANY_CRITERION,
  parseExamplesFlags,
  type ExamplesFlags,
  type ExamplesOptions,
} from './examples-options';
import { examplesTable } from './examples-table';
import { progressBar } from './progress-bar';

function chooseExperiment(service: PairwiseService, wanted: string | undefined, io: Io): string {
  const experiments = listExperiments(service.db);
  if (wanted !== undefined) {
    if (experiments.some((e) => e.id === wanted)) return wanted;
    const known = experiments.map((e) => e.id).join(', ') || 'none: index some runs first';
    throw new InputError(`No experiment "${wanted}" in this library (experiments: ${known}).`);
  }
  const chosen = startExperiment(experiments);
  if (!chosen)
    throw new InputError('No experiments found: index some runs first (pairwise index PATH).');
  io.err(`note: experiment ${chosen.id} (the latest with examples; pick one with --experiment).`);
  return chosen.id;
}

const pairName = (c: Comparison) => `${c.reference.condition} → ${c.candidate.condition}`;

/** `--pair` as a position in the report or the candidate condition's name. */
function choosePair(report: Report, wanted: string): number {
  const pairs = report.comparisons;
  const listed = pairs.map((c, i) => `${i} (${pairName(c)})`).join(', ') || 'none';
  const byName = pairs.flatMap((c, i) => (c.candidate.condition === wanted ? [i] : []));
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1)
    throw new InputError(
      `Several pairs have candidate "${wanted}": give its number (pairs: ${listed}).`,
    );
  const position = /^\d+$/.test(wanted) ? Number(wanted) : -1;
  if (position >= 0 && position < pairs.length) return position;
  throw new InputError(
    `Experiment ${report.experiment.id} has no pair "${wanted}" (pairs: ${listed}).`,
  );
}

/** A criterion the options name must be one of the pair's: else the filter silently finds nothing. */
function checkCriteria(options: ExamplesOptions, criteria: string[]): void {
  const named = [
    ['--filter', options.filter.criterion],
    ['--sort', options.sortCriterion],
  ] as const;
  for (const [flag, criterion] of named) {
    if (criterion === undefined || criteria.includes(criterion)) continue;
    const known = criteria.length ? criteria.join(', ') : 'none';
    throw new InputError(
      `${flag}: this pair has no criterion "${criterion}" (criteria: ${known}; ${ANY_CRITERION} for any).`,
    );
  }
}

/** A request through the contract, as a host sends it; a refused input is the user's error. */
async function ask<N extends RequestName>(
  service: PairwiseService,
  name: N,
  input: RequestInput<N>,
): Promise<RequestOutput<N>> {
  const result = await dispatch(service, name, input);
  if (result.ok) return result.value as RequestOutput<N>;
  const { code, message } = result.error;
  if (code === 'bad_request' || code === 'not_found') throw new InputError(message);
  throw new Error(message);
}

/**
 * Resolves at the fill's next step or when it stops: the pair's runs go first, so the answer
 * may be ready long before the whole library is searchable.
 */
function nextSearchStep(service: PairwiseService): Promise<'step' | 'stopped'> {
  return new Promise((resolve) => {
    const off = service.events.on('job:progress', () => {
      off();
      resolve('step');
    });
    void service.search.idle().then(() => {
      off();
      resolve('stopped');
    });
  });
}

/**
 * Asks until the answer is not waiting for search: the runs' full-text index is filled in the
 * background (by this process too), with a progress line on a terminal meanwhile. A fill that
 * stops without getting further is a failure, not a reason to wait forever.
 */
async function withSearchReady<T extends { searchPending?: { done: number } }>(
  service: PairwiseService,
  showProgress: boolean,
  request: () => Promise<T>,
): Promise<T> {
  let stop: (() => void) | null = null;
  try {
    let stoppedAt = -1;
    for (;;) {
      const answer = await request();
      if (!answer.searchPending) return answer;
      if (answer.searchPending.done <= stoppedAt)
        throw new Error('Search could not be prepared for these runs; see the log for why.');
      stop ??= progressBar(service.events, { enabled: showProgress, label: 'Preparing search' });
      if ((await nextSearchStep(service)) === 'stopped') stoppedAt = answer.searchPending.done;
    }
  } finally {
    stop?.();
  }
}

/**
 * `pairwise examples`: the explorer's pages of one compared pair on the command line, from the
 * cached comparison (computed first when there is none), filtered, sorted and paged by the core
 * exactly as the app asks for them.
 */
export async function examplesCommand(flags: ExamplesFlags, io: Io): Promise<number> {
  const options = parseExamplesFlags(flags);
  const service = openService(options.db, 'cli');
  const showProgress = Boolean(process.stderr.isTTY) && !options.json;
  try {
    // A one-shot command on a library from before blocks waits for it to be converted.
    await service.converted();
    const experimentId = chooseExperiment(service, options.experiment, io);
    const stopBar = progressBar(service.events, { enabled: showProgress, label: 'Comparing' });
    const { key, report } = await service.compare.run({ experimentId }).finally(stopBar);
    const pair = choosePair(report, options.pair);
    const criteria = report.comparisons[pair]!.criteria.map((c) => c.field);
    checkCriteria(options, criteria);
    const scope = { reportKey: key, pair, filter: options.filter };
    const count = () =>
      withSearchReady(service, showProgress, () => ask(service, 'examples:count', scope));
    if (options.count) {
      const { total } = await count();
      io.out(options.json ? JSON.stringify({ total }) : String(total));
      return 0;
    }
    const pageAt = (after: string | null, limit: number) =>
      withSearchReady(service, showProgress, () =>
        ask(service, 'examples:page', {
          ...scope,
          sort: options.sort,
          sortCriterion: options.sortCriterion,
          descending: options.descending,
          after,
          limit,
        }),
      );
    const { searchPending: _ready, ...page } = await pageAt(options.after, options.limit);
    // A later page is not counted by the core; the CLI always says how many match.
    const total = page.total ?? (await count()).total;
    if (options.json) {
      io.out(JSON.stringify({ ...page, total }));
      return 0;
    }
    // The core gives a cursor after every full page; a person is only offered one that leads on.
    const more = page.next !== null && (await pageAt(page.next, 1)).rows.length > 0;
    const label = `${experimentId} · pair ${pair}: ${pairName(report.comparisons[pair]!)}`;
    io.out(examplesTable({ ...page, next: more ? page.next : null, total }, criteria, label));
    return 0;
  } finally {
    await service.close();
  }
}
