import { z } from 'zod';
import { examplesFilterSchema } from '../shared/examples-filter';
import { useApp, type AppState } from './store';
import { refreshExperiment } from './sync';
import type { View } from './store/ui';
import { defaultSort, type ExamplesSort, type RouteState } from './store/workbench';

/**
 * The screen lives in the address's hash (`#/examples?exp=…&pair=1&q=…`): the hash works the
 * same on the browser host and on the desktop app's file:// page, and never reaches the server,
 * so the browser host's token (in the query, moved out on load) is left alone.
 */

const views: View[] = [
  'library',
  'conditions',
  'comparison',
  'examples',
  'findings',
  'sync',
  'problems',
];

const sortKeys = ['example_id', 'output_changed', 'behavior_changed', 'delta'] as const;

/** The parts of the address, read as untrusted text: a pasted link can hold anything. */
const routeSchema = z.object({
  view: z.enum(views as [View, ...View[]]).catch('library'),
  exp: z.string().max(2000).optional().catch(undefined),
  a: z.string().max(2000).optional().catch(undefined),
  b: z.string().max(2000).optional().catch(undefined),
  pair: z.coerce.number().int().min(0).max(100_000).catch(0),
  filter: examplesFilterSchema.catch({}),
  sort: z.enum(sortKeys).catch('example_id'),
  by: z.string().max(10_000).optional().catch(undefined),
  desc: z.boolean().catch(false),
  ex: z.string().max(10_000).optional().catch(undefined),
  finding: z.string().max(2000).optional().catch(undefined),
});

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function parseRoute(hash: string): RouteState {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const params = new URLSearchParams(query);
  const raw = routeSchema.parse({
    view: path || 'library',
    exp: params.get('exp') ?? undefined,
    a: params.get('a') ?? undefined,
    b: params.get('b') ?? undefined,
    pair: params.get('pair') ?? 0,
    filter: parseJson(params.get('filter')) ?? {},
    sort: params.get('sort') ?? 'example_id',
    by: params.get('by') ?? undefined,
    desc: params.get('desc') === '1',
    ex: params.get('ex') ?? undefined,
    finding: params.get('finding') ?? undefined,
  });
  const runPair = raw.a && raw.b ? { baseline: raw.a, candidate: raw.b } : null;
  const sort: ExamplesSort =
    raw.sort === 'delta' && raw.by === undefined
      ? defaultSort
      : {
          key: raw.sort,
          ...(raw.sort === 'delta' ? { criterion: raw.by } : {}),
          descending: raw.desc,
        };
  return {
    view: raw.view,
    experimentId: runPair ? null : (raw.exp ?? null),
    runPair,
    pair: raw.pair,
    filter: raw.filter,
    sort,
    exampleId: raw.ex ?? null,
    findingId: raw.finding ?? null,
  };
}

/** The address of a screen; only what differs from a fresh start is written. */
export function formatRoute(route: RouteState): string {
  const params = new URLSearchParams();
  if (route.runPair) {
    params.set('a', route.runPair.baseline);
    params.set('b', route.runPair.candidate);
  } else if (route.experimentId) params.set('exp', route.experimentId);
  const inExperiment =
    route.view !== 'library' && route.view !== 'sync' && route.view !== 'problems';
  if (inExperiment && route.pair !== 0) params.set('pair', String(route.pair));
  if (route.view === 'examples') {
    if (Object.keys(route.filter).length > 0) params.set('filter', JSON.stringify(route.filter));
    if (route.sort.key !== 'example_id') params.set('sort', route.sort.key);
    if (route.sort.criterion !== undefined) params.set('by', route.sort.criterion);
    if (route.sort.descending) params.set('desc', '1');
    if (route.exampleId) params.set('ex', route.exampleId);
  }
  if (route.view === 'findings' && route.findingId) params.set('finding', route.findingId);
  const query = params.toString();
  return `#/${route.view}${query ? `?${query}` : ''}`;
}

export function routeOf(s: AppState): RouteState {
  return {
    view: s.view,
    experimentId: s.runPair ? null : s.experimentId,
    runPair: s.runPair,
    pair: s.pair,
    filter: s.filter,
    sort: s.sort,
    exampleId: s.exampleId,
    findingId: s.findingId,
  };
}

/** Whether the screen itself changed (a new history entry), not just the row picked in it. */
function sameScreen(a: RouteState, b: RouteState): boolean {
  return formatRoute({ ...a, exampleId: null }) === formatRoute({ ...b, exampleId: null });
}

/**
 * Restores the screen from the address now, then keeps the two in step: a change of screen is
 * a new history entry (back returns to the one before), a change of the row picked in it
 * replaces the current entry; back/forward and an edited hash restore the screen they name.
 */
export function startRouting(): () => void {
  const store = useApp;
  if (window.location.hash) store.getState().restoreRoute(parseRoute(window.location.hash));
  let shown = routeOf(store.getState());
  const write = () => {
    const route = routeOf(store.getState());
    const hash = formatRoute(route);
    if (hash === window.location.hash) {
      shown = route;
      return;
    }
    const url = `${window.location.pathname}${window.location.search}${hash}`;
    if (sameScreen(route, shown) || !window.location.hash)
      window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
    shown = route;
  };
  write();
  const unsubscribe = store.subscribe(write);
  const onPop = () => {
    const route = parseRoute(window.location.hash);
    const before = store.getState().experimentId;
    shown = route;
    store.getState().restoreRoute(route);
    if (store.getState().experimentId !== before) void refreshExperiment();
  };
  window.addEventListener('popstate', onPop);
  return () => {
    unsubscribe();
    window.removeEventListener('popstate', onPop);
  };
}
