import {
  snapshotView,
  type EditableBody,
  type FindingRow,
  type FindingView,
  type OpenedFinding,
  type Pin,
  type SavedRevision,
  type SnapshotView,
  type Staleness,
} from '../../../shared/findings';
import { exampleDetail } from '../compare/pager';
import type { RequestInput } from '../../../shared/contract';
import type { ComparisonRunner } from '../compare/runner';
import { readReport } from '../compare/store';
import type { Db } from '../db/open';
import { ConflictError, NotFoundError } from '../errors';
import { textsUnavailable } from '../texts/unavailable';
import {
  draftBody,
  experimentCandidates,
  gatherEvidence,
  proposedLimitations,
  snapshotOf,
} from './draft';
import { findingHtml } from './export-html';
import { findingMarkdown } from './export-markdown';
import { staleness } from './staleness';
import {
  createFinding,
  getFinding,
  listFindings,
  listRevisions,
  readRevisionText,
  readSnapshot,
  readStoredRevision,
  saveRevision,
  storeSnapshot,
  type StoredRevision,
} from './store';
import { exportFileName } from './view';

/** Snapshot views kept, the newest used: a few findings open in turn, and History's pairs. */
const VIEWS_KEPT = 8;

/** The findings:* requests, over the store, the comparison runner and the exports. */
export class FindingsService {
  /**
   * Snapshot views by the snapshot's key (the sha256 of its JSON, so a view never goes stale):
   * opening a revision again, or another revision on the same evidence, skips parsing and
   * counting a report that is ~8 MB of JSON at a million pairs.
   */
  private readonly views = new Map<string, SnapshotView>();

  /**
   * @param saved called after each new revision: each one adds an outbox row, so the sync
   * panel's counts change.
   */
  constructor(
    private readonly db: Db,
    private readonly compare: ComparisonRunner,
    private readonly saved: () => void = () => undefined,
  ) {}

  list(experimentId?: string): FindingRow[] {
    return listFindings(this.db, experimentId);
  }

  async create(settings: RequestInput<'findings:create'>): Promise<SavedRevision> {
    const evidence = await gatherEvidence(this.db, this.compare, settings);
    const { title, body } = draftBody(this.db, evidence);
    return this.notify(createFinding(this.db, settings.experimentId, title, body));
  }

  /** A revision with its full report: for the exports, staleness and the core's own use. */
  get(findingId: string, revision?: number): FindingView {
    return getFinding(this.db, findingId, revision);
  }

  /** A revision as the app receives it, its report counted (shared/findings.ts, OpenedFinding). */
  open(findingId: string, revision?: number): OpenedFinding {
    const { stored, ...rest } = readRevisionText(this.db, findingId, revision);
    return { ...rest, body: { ...stored.text, snapshot: this.snapshotView(stored.snapshotKey) } };
  }

  private snapshotView(key: string): SnapshotView {
    const view = this.views.get(key) ?? snapshotView(readSnapshot(this.db, key));
    this.views.delete(key);
    this.views.set(key, view);
    for (const old of this.views.keys()) {
      if (this.views.size <= VIEWS_KEPT) break;
      this.views.delete(old);
    }
    return view;
  }

  /**
   * The editor's save. The snapshot is carried over from the current revision, and pins keep
   * the outputs captured when they were pinned: an editor can reorder, annotate or drop pins,
   * never invent evidence.
   */
  save(findingId: string, edit: EditableBody, baseRevision: number, title?: string): SavedRevision {
    const saved = saveRevision(
      this.db,
      findingId,
      baseRevision,
      (current) => ({
        text: {
          ...edit,
          pinned: edit.pinned.map((ref) => {
            const pin = current.text.pinned.find((p) => samePin(p, ref));
            if (!pin)
              throw new ConflictError(
                `Example "${ref.exampleId}" is not pinned in this finding: pin it with findings:pin first.`,
              );
            return { ...pin, note: ref.note };
          }),
        },
        snapshotKey: current.snapshotKey,
      }),
      title,
    );
    return this.notify(saved);
  }

  revisions(findingId: string): ReturnType<typeof listRevisions> {
    return listRevisions(this.db, findingId);
  }

  /** A restore is a new revision with the old body (and its evidence): history only grows. */
  restore(findingId: string, revision: number): SavedRevision {
    const old = readStoredRevision(this.db, findingId, revision);
    return this.notify(saveRevision(this.db, findingId, null, () => old));
  }

  staleness(findingId: string): Promise<Staleness> {
    return staleness(this.db, this.compare, this.get(findingId).body.snapshot);
  }

  /**
   * The researcher's explicit "use the current runs": a new revision with a new snapshot, and
   * any new candidate limitation proposed. Their text (protocol included) is left as written.
   */
  async refresh(findingId: string): Promise<SavedRevision> {
    const { settings } = this.get(findingId).body.snapshot;
    const evidence = await gatherEvidence(this.db, this.compare, settings);
    const snapshot = snapshotOf(this.db, evidence);
    const candidates = experimentCandidates(this.db, evidence);
    return this.notify(
      saveRevision(this.db, findingId, null, ({ text }) => ({
        text: {
          ...text,
          limitations: [...text.limitations, ...proposedLimitations(text.limitations, candidates)],
        },
        snapshotKey: storeSnapshot(this.db, snapshot),
      })),
    );
  }

  export(
    findingId: string,
    format: 'markdown' | 'html',
    revision?: number,
  ): { filename: string; content: string } {
    const view = this.get(findingId, revision);
    return format === 'markdown'
      ? { filename: exportFileName(view, 'md'), content: findingMarkdown(view) }
      : { filename: exportFileName(view, 'html'), content: findingHtml(view) };
  }

  /** Pins an example of a cached comparison, copying both sides' input and output. */
  pin(
    findingId: string,
    ref: { reportKey: string; pair: number; exampleId: string; note?: string },
  ): SavedRevision {
    const { finding } = readRevisionText(this.db, findingId);
    const cached = readReport(this.db, ref.reportKey);
    if (!cached) throw new NotFoundError('That comparison is no longer cached: run it again.');
    if (cached.report.experiment.id !== finding.experimentId)
      throw new ConflictError('That comparison is of another experiment than this finding.');
    const comparison = cached.report.comparisons[ref.pair];
    if (!comparison) throw new NotFoundError(`The comparison has no pair ${ref.pair}.`);
    const detail = exampleDetail(this.db, ref);
    // A pin freezes the texts as evidence: empty ones standing in for unreadable texts would not be.
    for (const s of [detail.reference, detail.candidate])
      if (s?.unavailable) throw textsUnavailable(this.db, s.run_id, s.unavailable);
    const side = (s: typeof detail.reference, condition: string): Pin['reference'] =>
      s ? { condition, runId: s.run_id, input: s.input, output: s.output } : null;
    const saved = saveRevision(
      this.db,
      findingId,
      null,
      ({ text, snapshotKey }): StoredRevision => {
        const existing = text.pinned.find((p) => samePin(p, ref));
        const pin: Pin = {
          reportKey: ref.reportKey,
          pair: ref.pair,
          exampleId: ref.exampleId,
          note: ref.note ?? existing?.note ?? '',
          reference: side(detail.reference, comparison.reference.condition),
          candidate: side(detail.candidate, comparison.candidate.condition),
        };
        const pinned = existing
          ? text.pinned.map((p) => (p === existing ? pin : p))
          : [...text.pinned, pin];
        return { text: { ...text, pinned }, snapshotKey };
      },
    );
    return this.notify(saved);
  }

  /** Each new revision adds an outbox row: the sync panel is told. */
  private notify(saved: SavedRevision): SavedRevision {
    this.saved();
    return saved;
  }
}

function samePin(
  a: { reportKey: string; pair: number; exampleId: string },
  b: { reportKey: string; pair: number; exampleId: string },
): boolean {
  return a.reportKey === b.reportKey && a.pair === b.pair && a.exampleId === b.exampleId;
}
