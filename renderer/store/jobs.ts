import type { StateCreator } from 'zustand';
import type { Job } from '../../shared/jobs';
import type { AppState } from './index';

export interface JobsSlice {
  jobs: Job[];
  setJobs(jobs: Job[]): void;
  updateJob(job: Partial<Job> & { id: string }): void;
}

export const createJobsSlice: StateCreator<AppState, [], [], JobsSlice> = (set) => ({
  jobs: [],
  setJobs: (jobs) => set({ jobs }),
  updateJob: (update) =>
    set((state) => {
      const existing = state.jobs.find((j) => j.id === update.id);
      if (!existing) return state;
      return { jobs: state.jobs.map((j) => (j.id === update.id ? { ...j, ...update } : j)) };
    }),
});
