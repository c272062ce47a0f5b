import type { EditableBody, FindingBody } from './findings';

/**
 * The researcher's part of a body, as a save sends it back: pins without their texts. A module
 * of its own, with types alone from findings.ts, so the findings view loads without zod (its
 * schemas took 16–38 ms of the renderer's CPU as the app preloaded the view when idle).
 */
export function editableBody(view: { body: Omit<FindingBody, 'snapshot'> }): EditableBody {
  const { question, claim, protocol, conclusion, limitations, pinned } = view.body;
  return {
    question,
    claim,
    protocol,
    conclusion,
    limitations,
    pinned: pinned.map(({ reportKey, pair, exampleId, note }) => ({
      reportKey,
      pair,
      exampleId,
      note,
    })),
  };
}
