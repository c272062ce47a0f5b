import type { StateCreator } from 'zustand';
import type { Report } from '../../shared/compare/types';
import { pairExperimentId, type RequestInput, type RequestOutput } from '../../shared/contract';
import type { AppState } from './index';

export type ExperimentRow = RequestOutput<'experiments:list'>[number];
export type ConditionRow = RequestOutput<'conditions:list'>[number];
export type ExamplesFilter = NonNullable<RequestInput<'examples:page'>['filter']>;

export interface LoadedReport {
  key: string;
  createdAt: string;
  report: Report;
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
  setExperiments: (experiments) => set({ experiments }),
  selectExperiment: (experimentId) =>
    set((s) =>
      s.experimentId === experimentId
        ? s
        : {
            experimentId,
            runPair: null,
            conditions: [],
            report: null,
            pair: 0,
            filter: {},
            findingId: null,
          },
    ),
  compareRuns: (runPair) =>
    set({
      experimentId: pairExperimentId(runPair.baseline, runPair.candidate),
      runPair,
      conditions: [],
      report: null,
      pair: 0,
      filter: {},
      findingId: null,
      view: 'comparison',
    }),
  setConditions: (conditions) => set({ conditions }),
  setReport: (report) => set({ report }),
  selectPair: (pair) => set({ pair }),
  setFilter: (filter) => set({ filter }),
  openFinding: (findingId) => set({ findingId, view: 'findings' }),
  openExamples: (pair, filter) =>
    set((s) => ({ pair, filter, view: 'examples', filterEpoch: s.filterEpoch + 1 })),
});
