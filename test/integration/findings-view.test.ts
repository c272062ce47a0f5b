import { afterEach, describe, expect, it } from 'vitest';
import { saveRevision, storeSnapshot } from '../../electron/core/findings/store';
import { blankBefore, revisionChanges } from '../../renderer/features/findings/revisionDiff';
import { editableBody } from '../../shared/finding-body';
import type { OpenedFinding, SavedRevision } from '../../shared/findings';
import { millionIdSnapshot } from '../fixtures/findings';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { callOk, makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

function call<T>(name: string, input: unknown): Promise<T> {
  return callOk<T>(harness!.service, name, input);
}

/** A reference and a steered run whose outputs and refusals differ on some examples. */
async function draft(): Promise<OpenedFinding> {
  harness = makeService();
  const root = `${harness.dir}/lib`;
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: examples(30) });
  writeMechlensRun(root, {
    id: 'steer',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: examples(32, (i) => ({ refused: i % 3 === 0, score: (i % 4) + 1 })).map((e, i) =>
      i % 4 === 0 ? { ...e, output: `${e.output} (steered)` } : e,
    ),
  });
  await harness.service.index([root]);
  return call<OpenedFinding>('findings:create', { experimentId: 'exp-test', resamples: 200 });
}

/** Points the finding at its snapshot with every id list filled to a million-pair size. */
function inflate(findingId: string): number {
  const { db } = harness!.service;
  const full = harness!.service.findings.get(findingId).body.snapshot;
  const snapshotKey = storeSnapshot(db, millionIdSnapshot(full));
  return saveRevision(db, findingId, null, ({ text }) => ({ text, snapshotKey })).revision;
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('a finding as the app receives it', () => {
  it('carries its report counted, while the stored revision and the exports keep the ids', async () => {
    const view = await draft();
    const id = view.finding.id;
    const stored = harness!.service.findings.get(id).body.snapshot.report;
    const shown = view.body.snapshot.report;
    expect(stored.comparisons[0]!.coverage.only_candidate).toEqual(['ex-031', 'ex-032']);
    expect(shown.comparisons[0]!.coverage.only_candidate).toBe(2);
    expect(shown.comparisons[0]!.examples.output_changed).toBe(
      stored.comparisons[0]!.examples.output_changed.length,
    );
    expect(shown.comparisons[0]!.examples.output_changed).toBeGreaterThan(0);
    // Everything but the lists is the report's own.
    expect(shown.comparisons[0]!.metrics.map((m) => m.paired?.ci95)).toEqual(
      stored.comparisons[0]!.metrics.map((m) => m.paired?.ci95),
    );
    expect(await call<OpenedFinding>('findings:get', { findingId: id })).toEqual(view);
    // The Markdown export still reads the full report: it names the examples only one side has.
    const { content } = await call<{ content: string }>('findings:export', {
      findingId: id,
      format: 'markdown',
    });
    expect(content).toContain('| steer vs reference |');
  });

  it('opens, autosaves, restores and diffs in small answers when the report lists a million ids', async () => {
    const view = await draft();
    const id = view.finding.id;
    const big = inflate(id);
    // What each answer would weigh if the frozen report went whole.
    expect(bytes(harness!.service.findings.get(id))).toBeGreaterThan(7_000_000);

    const opened = await call<OpenedFinding>('findings:get', { findingId: id });
    expect(opened.revision).toBe(big);
    expect(bytes(opened)).toBeLessThan(64 * 1024);
    expect(opened.body.snapshot.report.comparisons[0]!.examples.output_changed).toBe(300_000);

    const saved = await call<SavedRevision>('findings:save', {
      findingId: id,
      baseRevision: big,
      body: { ...editableBody(opened), conclusion: 'Refusals fell.' },
    });
    expect(saved.revision).toBe(big + 1);
    expect(bytes(saved)).toBeLessThan(1024);
    // The save carried the million-id snapshot over untouched.
    expect(harness!.service.findings.get(id).body.snapshot).toEqual(
      harness!.service.findings.get(id, big).body.snapshot,
    );

    const restored = await call<OpenedFinding>('findings:restore', {
      findingId: id,
      revision: view.revision,
    });
    expect(bytes(restored)).toBeLessThan(64 * 1024);
    expect(restored.body.snapshot).toEqual(view.body.snapshot);
    expect(restored.body.conclusion).toBe('');

    // History: what the save changed, and the restore against the current revision.
    const [before, after] = await Promise.all(
      [big, big + 1].map((revision) =>
        call<OpenedFinding>('findings:get', { findingId: id, revision }),
      ),
    );
    expect(bytes(before) + bytes(after)).toBeLessThan(128 * 1024);
    // Revisions on one snapshot share its view: the million ids are parsed and counted once.
    expect(after!.body.snapshot.report).toBe(before!.body.snapshot.report);
    expect(revisionChanges(before!.body, after!.body)).toEqual([
      expect.objectContaining({ kind: 'text', label: 'Conclusion' }),
    ]);
    expect(revisionChanges(blankBefore(opened.body), opened.body).length).toBeGreaterThan(0);
  });
});
