import { z } from 'zod';
import { examplesFilterSchema } from '../shared/examples-filter';
import type { View } from './store/ui';
import { defaultSort, type ExamplesSort, type RouteState } from './store/workbench';

/*
 * Reading an address into a screen, through zod. A module of its own, loaded only when there is
 * an address to read (a reload, a pasted link, back or forward): the app starts without zod.
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
