import type { LibrarySpec } from './generate';

const REALISTIC = { inputChars: 200, outputChars: 600 };

/** The benchmark's libraries. */
export const SPECS = {
  small: { name: 'small', experiments: 2, runsPerExperiment: 10, examples: 1000, ...REALISTIC },
  pair100k: {
    name: 'pair100k',
    experiments: 1,
    runsPerExperiment: 2,
    examples: 100_000,
    ...REALISTIC,
  },
  '1gb': { name: '1gb', experiments: 100, runsPerExperiment: 10, examples: 1000, ...REALISTIC },
  pair1m: {
    name: 'pair1m',
    experiments: 1,
    runsPerExperiment: 2,
    examples: 1_000_000,
    ...REALISTIC,
  },
  /**
   * The realistic 1M-example run file is ~880 MB, past V8's 512 MiB string limit, which the
   * JSON.parse baseline hits (Pairwise reads such files in batches). Shorter texts keep the
   * same million pairs under it, for when the realistic pair cannot be indexed.
   */
  pair1mShort: {
    name: 'pair1m-short',
    experiments: 1,
    runsPerExperiment: 2,
    examples: 1_000_000,
    inputChars: 60,
    outputChars: 180,
  },
} satisfies Record<string, LibrarySpec>;

/** The same texts under other run and experiment ids (both come from the spec's name). */
export function againSpec(spec: LibrarySpec): LibrarySpec {
  return { ...spec, name: `${spec.name}-again` };
}
