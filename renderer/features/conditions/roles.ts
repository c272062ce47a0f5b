import type { ReferenceBasis } from '../../../shared/contract';

export const roles = ['reference', 'intervention', 'control', 'unknown'] as const;
export type Role = (typeof roles)[number];

/** What a condition or a run that has the role is called. */
export const roleLabels: Record<Role, string> = {
  reference: 'Reference',
  intervention: 'Intervention',
  control: 'Control',
  unknown: 'Unassigned',
};

/** A column that holds every condition with the role. */
export const roleTitles: Record<Role, string> = {
  reference: 'Reference',
  intervention: 'Interventions',
  control: 'Controls',
  unknown: 'Unassigned',
};

/** What a drag onto a role column carries. */
export type Dragged = { kind: 'condition'; name: string } | { kind: 'run'; runId: string };

export const draggedType = 'application/x-pairwise';

/** Pairwise picked the reference itself (by name, or the earliest run): the user should know. */
export function referenceGuessed(basis: ReferenceBasis | null | undefined): boolean {
  return basis === 'name' || basis === 'earliest';
}
