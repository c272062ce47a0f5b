import { useApp, type AppState } from './store';
import { refreshExperiment } from './sync';
import type { RouteState } from './store/workbench';

/**
 * The screen lives in the address's hash (`#/examples?exp=…&pair=1&q=…`): the hash works the
 * same on the browser host and on the desktop app's file:// page, and never reaches the server,
 * so the browser host's token (in the query, moved out on load) is left alone.
 */

const readRoute = () => import('./readRoute').then((m) => m.parseRoute);

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
export async function startRouting(): Promise<() => void> {
  const store = useApp;
  if (window.location.hash) {
    const parseRoute = await readRoute();
    store.getState().restoreRoute(parseRoute(window.location.hash));
  }
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
  const onPop = async () => {
    const parseRoute = await readRoute();
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
