import { diffWordsWithSpace, type ChangeObject } from 'diff';
import type { OpenedBody } from '../../../shared/findings';

/** One part of a finding that changed between two revisions, ready to show. */
export type RevisionChange =
  | { kind: 'text'; label: string; parts: ChangeObject<string>[] }
  | { kind: 'list'; label: string; added: string[]; removed: string[] };

const textFields = [
  ['question', 'Question'],
  ['claim', 'Claim'],
  ['protocol', 'Protocol'],
  ['conclusion', 'Conclusion'],
] as const;

function listChange(label: string, before: string[], after: string[]): RevisionChange | null {
  const was = new Set(before);
  const now = new Set(after);
  const added = after.filter((x) => !was.has(x));
  const removed = before.filter((x) => !now.has(x));
  return added.length || removed.length ? { kind: 'list', label, added, removed } : null;
}

/** Limitations as a reader sees them: only the kept ones count, each with its status. */
function limitations(body: OpenedBody): string[] {
  return body.limitations
    .filter((l) => l.status === 'accepted' || l.status === 'edited')
    .map((l) => l.text);
}

function pins(body: OpenedBody): string[] {
  return body.pinned.map((p) =>
    [p.exampleId, p.candidate?.condition, p.note].filter(Boolean).join(' · '),
  );
}

function evidence(body: OpenedBody): string[] {
  const s = body.snapshot;
  return [
    `comparison of ${s.reportCreatedAt.replace('T', ' ').slice(0, 19)} (reference ${s.settings.reference})`,
  ];
}

/**
 * What changed from `before` to `after`, field by field: words for the texts, items for the
 * lists (limitations kept, pinned examples, the evidence the finding cites). Unchanged fields
 * are left out, so a one-word edit reads as one word.
 */
export function revisionChanges(before: OpenedBody, after: OpenedBody): RevisionChange[] {
  const changes: RevisionChange[] = [];
  for (const [field, label] of textFields) {
    if (before[field] === after[field]) continue;
    changes.push({ kind: 'text', label, parts: diffWordsWithSpace(before[field], after[field]) });
  }
  for (const change of [
    listChange('Limitations', limitations(before), limitations(after)),
    listChange('Pinned examples', pins(before), pins(after)),
    listChange('Evidence', evidence(before), evidence(after)),
  ])
    if (change) changes.push(change);
  return changes;
}

/**
 * What the first revision is shown against: a finding with nothing written yet, on the same
 * evidence, so its changes are everything the researcher wrote and not the snapshot.
 */
export function blankBefore(first: OpenedBody): OpenedBody {
  return {
    ...first,
    question: '',
    claim: '',
    protocol: '',
    conclusion: '',
    limitations: [],
    pinned: [],
  };
}
