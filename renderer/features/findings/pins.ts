import type { EditableBody, Pin } from '../../../shared/findings';

type PinRef = EditableBody['pinned'][number];

/** Within one finding an example is pinned once per pair, so pair and id name it. */
function samePin(a: Pick<PinRef, 'pair' | 'exampleId'>, b: Pick<PinRef, 'pair' | 'exampleId'>) {
  return a.exampleId === b.exampleId && a.pair === b.pair;
}

/**
 * The saved pins (which carry both outputs) that the draft still holds, each with the draft's
 * note: an unpinned example disappears at once, a note shows as typed, before any save.
 */
export function shownPins(saved: readonly Pin[], draft: readonly PinRef[]): Pin[] {
  return saved
    .filter((p) => draft.some((d) => d.reportKey === p.reportKey && samePin(d, p)))
    .map((p) => ({ ...p, note: draft.find((d) => samePin(d, p))?.note ?? p.note }));
}

export function withPinNote(draft: readonly PinRef[], target: PinRef | Pin, note: string) {
  return draft.map((d) => (samePin(d, target) ? { ...d, note } : d));
}

export function withoutPin(draft: readonly PinRef[], target: PinRef | Pin): PinRef[] {
  return draft.filter((d) => !samePin(d, target));
}
