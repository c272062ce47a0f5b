import type { StateCreator } from 'zustand';
import type { ReportView } from '../../shared/report-view';
import type { RequestInput, RequestOutput } from '../../shared/contract';
import { pairExperimentId } from '../../shared/pair-experiment';
import type { AppState } from './index';

export type ExperimentRow = RequestOutput<'experiments:list'>[number];
export type ConditionRow = RequestOutput<'conditions:list'>[number];
export type ExamplesFilter = NonNullable<RequestInput<'examples:page'>['filter']>;

export interface LoadedReport {
  key: string;
  createdAt: string;
  report: ReportView;
}

/**
 * The order of the examples table: by a column the core sorts by, or (`delta`) by how far each
 * example moved under `criterion`.
 */
export interface ExamplesSort {
  key: 'example_id' | 'output_changed' | 'behavior_changed' | 'delta';
  criterion?: string;
  descending: boolean;
}

export const defaultSort: ExamplesSort = { key: 'example_id', descending: false };

/** What the address restores: everything but data the core holds. */
export interface RouteState {
  view: AppState['view'];
  experimentId: string | null;
  runPair: RunPair | null;
  pair: number;
  filter: ExamplesFilter;
  sort: ExamplesSort;
  exampleId: string | null;
  findingId: string | null;
}

/** Two runs picked in the library, compared whatever their experiments. */
export interface RunPair {
  baseline: string;
  candidate: string;
}

/** The experiment being worked on and what the researcher is looking at inside it. */
export interface WorkbenchSlice {
  experiments: ExperimentRow[];
  /** An experiment's id, or the id of the comparison of `runPair`. */
  experimentId: string | null;
  runPair: RunPair | null;
  conditions: ConditionRow[];
  report: LoadedReport | null;
  pair: number;
  filter: ExamplesFilter;
  findingId: string | null;
  /** Bumped when the filter is replaced from outside the filter bar (a dashboard link). */
  filterEpoch: number;
  sort: ExamplesSort;
  /** The example picked in the examples table; null shows the first row. */
  exampleId: string | null;
  setSort(sort: ExamplesSort): void;
  selectExample(exampleId: string | null): void;
  /** Puts back a screen from the address (a reload, back/forward, a pasted link). */
  restoreRoute(route: RouteState): void;
  setExperiments(experiments: ExperimentRow[]): void;
  selectExperiment(id: string | null): void;
  compareRuns(pair: RunPair): void;
  setConditions(conditions: ConditionRow[]): void;
  setReport(report: LoadedReport | null): void;
  selectPair(pair: number): void;
  setFilter(filter: ExamplesFilter): void;
  /** From a dashboard number straight into the examples it counts. */
  openExamples(pair: number, filter: ExamplesFilter): void;
  openFinding(findingId: string): void;
}

/** What opening another experiment (or pair of runs) starts from: nothing of the last one. */
const freshExperiment = {
  conditions: [],
  report: null,
  pair: 0,
  filter: {},
  findingId: null,
  sort: defaultSort,
  exampleId: null,
} satisfies Partial<WorkbenchSlice>;

export const createWorkbenchSlice: StateCreator<AppState, [], [], WorkbenchSlice> = (set) => ({
  experiments: [],
  experimentId: null,
  runPair: null,
  conditions: [],
  report: null,
  pair: 0,
  filter: {},
  filterEpoch: 0,
  findingId: null,
  sort: defaultSort,
  exampleId: null,
  setExperiments: (experiments) => set({ experiments }),
  selectExperiment: (experimentId) =>
    set((s) =>
      s.experimentId === experimentId ? s : { ...freshExperiment, experimentId, runPair: null },
    ),
  compareRuns: (runPair) =>
    set({
      ...freshExperiment,
      experimentId: pairExperimentId(runPair.baseline, runPair.candidate),
      runPair,
      view: 'comparison',
    }),
  setConditions: (conditions) => set({ conditions }),
  setReport: (report) => set({ report }),
  selectPair: (pair) => set((s) => (s.pair === pair ? s : { pair, exampleId: null })),
  setFilter: (filter) => set({ filter, exampleId: null }),
  setSort: (sort) => set({ sort, exampleId: null }),
  selectExample: (exampleId) => set({ exampleId }),
  restoreRoute: (route) =>
    set((s) => {
      const experimentId = route.runPair
        ? pairExperimentId(route.runPair.baseline, route.runPair.candidate)
        : route.experimentId;
      const sameData = s.experimentId === experimentId;
      return {
        ...route,
        experimentId,
        ...(sameData ? {} : { conditions: [], report: null }),
        filterEpoch:
          JSON.stringify(s.filter) === JSON.stringify(route.filter)
            ? s.filterEpoch
            : s.filterEpoch + 1,
      };
    }),
  openFinding: (findingId) => set({ findingId, view: 'findings' }),
  openExamples: (pair, filter) =>
    set((s) => ({
      pair,
      filter,
      exampleId: null,
      view: 'examples',
      filterEpoch: s.filterEpoch + 1,
    })),
});
