import { create } from 'zustand';
import { createJobsSlice, type JobsSlice } from './jobs';
import { createLibrarySlice, type LibrarySlice } from './library';
import { createUiSlice, type UiSlice } from './ui';
import { createWorkbenchSlice, type WorkbenchSlice } from './workbench';

export type AppState = JobsSlice & LibrarySlice & UiSlice & WorkbenchSlice;

export const useApp = create<AppState>()((...a) => ({
  ...createJobsSlice(...a),
  ...createLibrarySlice(...a),
  ...createUiSlice(...a),
  ...createWorkbenchSlice(...a),
}));
