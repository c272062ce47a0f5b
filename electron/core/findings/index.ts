import type {
  EditableBody,
  FindingRow,
  FindingView,
  Pin,
  SavedRevision,
  Staleness,
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
  readStoredRevision,
  saveRevision,
  storeSnapshot,
  type StoredRevision,
} from './store';
import { exportFileName } from './view';

/** The findings:* requests, over the store, the comparison runner and the exports. */
export class FindingsService {
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

  async create(settings: RequestInput<'findings:create'>): Promise<FindingView> {
    const evidence = await gatherEvidence(this.db, this.compare, settings);
    const { title, body } = draftBody(this.db, evidence);
    return this.opened(createFinding(this.db, settings.experimentId, title, body));
  }

  get(findingId: string, revision?: number): FindingView {
    return getFinding(this.db, findingId, revision);
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
    this.saved();
    return saved;
  }

  revisions(findingId: string): ReturnType<typeof listRevisions> {
    return listRevisions(this.db, findingId);
  }

  /** A restore is a new revision with the old body (and its evidence): history only grows. */
  restore(findingId: string, revision: number): FindingView {
    const old = readStoredRevision(this.db, findingId, revision);
    return this.opened(saveRevision(this.db, findingId, null, () => old));
  }

  staleness(findingId: string): Promise<Staleness> {
    return staleness(this.db, this.compare, this.get(findingId).body.snapshot);
  }

  /**
   * The researcher's explicit "use the current runs": a new revision with a new snapshot, and
   * any new candidate limitation proposed. Their text (protocol included) is left as written.
   */
  async refresh(findingId: string): Promise<FindingView> {
    const { settings } = this.get(findingId).body.snapshot;
    const evidence = await gatherEvidence(this.db, this.compare, settings);
    const snapshot = snapshotOf(this.db, evidence);
    const candidates = experimentCandidates(this.db, evidence);
    return this.opened(
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
  ): FindingView {
    const finding = this.get(findingId).finding;
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
    return this.opened(saved);
  }

  /** After a new revision: the sync panel is told, and the revision is read back whole. */
  private opened(saved: SavedRevision): FindingView {
    this.saved();
    return getFinding(this.db, saved.finding.id, saved.revision);
  }
}

function samePin(
  a: { reportKey: string; pair: number; exampleId: string },
  b: { reportKey: string; pair: number; exampleId: string },
): boolean {
  return a.reportKey === b.reportKey && a.pair === b.pair && a.exampleId === b.exampleId;
}
