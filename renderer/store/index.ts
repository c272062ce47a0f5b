import { create } from 'zustand';
import { createJobsSlice, type JobsSlice } from './jobs';
import { createLibrarySlice, type LibrarySlice } from './library';
import { createUiSlice, type UiSlice } from './ui';

export type AppState = JobsSlice & LibrarySlice & UiSlice;

export const useApp = create<AppState>()((...a) => ({
  ...createJobsSlice(...a),
  ...createLibrarySlice(...a),
  ...createUiSlice(...a),
}));
