import type { StateCreator } from 'zustand';
import type { AppState } from './index';

export type View =
  'library' | 'conditions' | 'comparison' | 'examples' | 'findings' | 'sync' | 'problems';

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

export interface UiSlice {
  view: View;
  toasts: Toast[];
  setView(view: View): void;
  toast(kind: Toast['kind'], text: string): void;
  dismissToast(id: number): void;
}

let nextToast = 1;

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  view: 'library',
  toasts: [],
  setView: (view) => set({ view }),
  toast: (kind, text) =>
    set((s) => ({ toasts: [...s.toasts.slice(-3), { id: nextToast++, kind, text }] })),
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
});
