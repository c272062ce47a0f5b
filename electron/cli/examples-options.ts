import { z } from 'zod';
import { changeClassSchema, type RequestInput } from '../../shared/contract';
import { UsageError } from './commands';

type PageInput = RequestInput<'examples:page'>;
export type ExamplesFilter = NonNullable<PageInput['filter']>;

/** `--filter` names this instead of a criterion to mean "under any criterion", as the app's "any". */
export const ANY_CRITERION = 'any';

const yesNo = z.enum(['yes', 'no']).transform((answer) => answer === 'yes');

const classFilter = z.string().transform((text, ctx) => {
  const at = text.lastIndexOf('=');
  const cls = changeClassSchema.safeParse(text.slice(at + 1));
  if (at <= 0 || !cls.success) {
    ctx.addIssue({
      code: 'custom',
      message: `expected CRITERION=CLASS (or any=CLASS), CLASS one of ${changeClassSchema.options.join(', ')}; got "${text}"`,
    });
    return z.NEVER;
  }
  const criterion = text.slice(0, at);
  return { criterion: criterion === ANY_CRITERION ? undefined : criterion, changeClass: cls.data };
});

const sortSchema = z.string().transform((text, ctx) => {
  const plain = (['example_id', 'output_changed', 'behavior_changed'] as const).find(
    (sort) => sort === text,
  );
  if (plain) return { sort: plain, sortCriterion: undefined };
  if (text.startsWith('delta:') && text.length > 'delta:'.length)
    return { sort: 'delta' as const, sortCriterion: text.slice('delta:'.length) };
  ctx.addIssue({
    code: 'custom',
    message: `expected example_id, output_changed, behavior_changed or delta:CRITERION; got "${text}"`,
  });
  return z.NEVER;
});

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `expected a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min).max(max));

/**
 * The flags of `pairwise examples` as `parseArgs` gives them. The explorer's filter holds one
 * criterion's class, so `--filter` is taken once: two would need an AND the core does not page.
 */
const flagsSchema = z
  .object({
    db: z.string().min(1).optional(),
    experiment: z.string().min(1).optional(),
    pair: z.string().min(1).default('0'),
    search: z.string().max(500).optional(),
    filter: z
      .array(classFilter)
      .max(1, 'give it once: the explorer filters on one criterion class at a time')
      .default([]),
    'output-changed': yesNo.optional(),
    'behaviour-changed': yesNo.optional(),
    side: z.enum(['both', 'reference', 'candidate']).optional(),
    'input-mismatch': z.boolean().optional(),
    sort: sortSchema.default({ sort: 'example_id' as const, sortCriterion: undefined }),
    desc: z.boolean().default(false),
    limit: wholeNumber(1, 1000).default(50),
    after: z.string().min(1).max(2000).optional(),
    count: z.boolean().default(false),
    json: z.boolean().default(false),
  })
  .strict();

/** What `parseArgs` gives, unchecked. */
export type ExamplesFlags = Partial<Record<string, string | string[] | boolean>>;

export interface ExamplesOptions {
  db?: string;
  experiment?: string;
  /** A pair's position in the report, or its candidate condition's name. */
  pair: string;
  filter: ExamplesFilter;
  sort: NonNullable<PageInput['sort']>;
  sortCriterion?: string;
  descending: boolean;
  limit: number;
  after: string | null;
  count: boolean;
  json: boolean;
}

/** The flags checked and shaped as the explorer's request: a bad value is a usage error. */
export function parseExamplesFlags(flags: ExamplesFlags): ExamplesOptions {
  const parsed = flagsSchema.safeParse(flags);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--${String(issue.path[0] ?? 'examples')}: ${issue.message}.`);
  }
  const f = parsed.data;
  const filter: ExamplesFilter = {
    ...f.filter[0],
    outputChanged: f['output-changed'],
    behaviorChanged: f['behaviour-changed'],
    side: f.side,
    inputMismatch: f['input-mismatch'],
    search: f.search,
  };
  return {
    db: f.db,
    experiment: f.experiment,
    pair: f.pair,
    filter: Object.fromEntries(
      Object.entries(filter).filter(([, value]) => value !== undefined),
    ) as ExamplesFilter,
    sort: f.sort.sort,
    sortCriterion: f.sort.sortCriterion,
    descending: f.desc,
    limit: f.limit,
    after: f.after ?? null,
    count: f.count,
    json: f.json,
  };
}
