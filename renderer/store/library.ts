import type { StateCreator } from 'zustand';
import type { RequestOutput } from '../../shared/contract';
import type { AppState } from './index';

export type LibrarySummary = RequestOutput<'library:summary'>;
export type RunRow = RequestOutput<'runs:list'>[number];
export type Problem = RequestOutput<'library:problems'>[number];

export interface LibrarySlice {
  summary: LibrarySummary | null;
  runs: RunRow[];
  problems: Problem[];
  setLibrary(data: { summary: LibrarySummary; runs: RunRow[]; problems: Problem[] }): void;
}

export const createLibrarySlice: StateCreator<AppState, [], [], LibrarySlice> = (set) => ({
  summary: null,
  runs: [],
  problems: [],
  setLibrary: (data) => set(data),
});
