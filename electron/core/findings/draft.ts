import { randomUUID } from 'node:crypto';
import { methodsNote } from '../../../shared/compare/methods';
import { candidateLimitations, protocolSummary } from '../../../shared/compare/finding';
import type { ProtocolSummary } from '../../../shared/compare/finding';
import type { Report } from '../../../shared/compare/types';
import type { FindingBody, Limitation, Snapshot } from '../../../shared/findings';
import type { JsonValue } from '../../../shared/model';
import type { CompareTask } from '../compare/compute';
import { loadExperiment, loadRun } from '../compare/load';
import { planComparison } from '../compare/plan';
import type { RequestInput } from '../../../shared/contract';
import type { ComparisonRunner } from '../compare/runner';
import { reportKey } from '../compare/store';
import type { Db } from '../db/open';

/**
 * The draft a finding starts from (docs/findings.md, "The draft"): question and claim from the
 * declaration, the protocol as the runs record it, candidate limitations to accept or dismiss, and
 * the evidence snapshot. The conclusion starts empty: Pairwise never writes one.
 */

export interface Evidence {
  answer: { key: string; createdAt: string; report: Report };
  plan: Omit<CompareTask, 'dbPath'>;
}

/**
 * The report for these settings and the plan it was computed from. A re-index that lands
 * while the comparison runs would make the two disagree, so that case is simply run again.
 */
export async function gatherEvidence(
  db: Db,
  compare: ComparisonRunner,
  settings: RequestInput<'findings:create'>,
): Promise<Evidence> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const answer = await compare.run(settings);
    const plan = planComparison(db, settings.experimentId, settings);
    if (reportKey(db, plan) === answer.key) return { answer, plan };
  }
  throw new Error('The runs kept changing while comparing: try again once indexing has finished.');
}

export function snapshotOf(db: Db, { answer, plan }: Evidence): Snapshot {
  const runIds = [
    ...plan.conditions.map((c) => ({ runId: c.runId, condition: c.name })),
    ...plan.referenceReplicates.map((runId) => ({ runId, condition: plan.reference })),
  ];
  const sha = db.prepare(`SELECT source_sha256 FROM runs WHERE id = ?`);
  return {
    reportKey: answer.key,
    reportCreatedAt: answer.createdAt,
    settings: {
      experimentId: plan.experimentId,
      reference: plan.reference,
      resamples: plan.resamples,
    },
    runs: runIds.map((r) => ({
      ...r,
      sourceSha256:
        (sha.get(r.runId) as { source_sha256: string | null } | undefined)?.source_sha256 ?? null,
    })),
    bootstrap: {
      resamples: plan.resamples,
      method: methodsNote(answer.report.comparisons) ?? 'no paired metric',
    },
    report: answer.report,
  };
}

function shown(value: JsonValue): string {
  if (value === null) return 'not recorded';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A guessed reference is part of the protocol: the reader should know nothing declared it. */
function guessNote(basis: string | undefined): string {
  if (basis === 'earliest') return ' (guessed: the earliest run; nothing in the files declares it)';
  if (basis === 'name') return ' (guessed from its name; nothing in the files declares it)';
  return '';
}

/** The protocol as plain text the researcher can edit; every number comes from the runs. */
function protocolText(summary: ProtocolSummary, snapshot: Snapshot): string {
  const same = (consistent: boolean) =>
    consistent ? 'the same in every run' : 'NOT the same in every run: see the checks';
  // A Markdown list, so it reads the same as plain text, in the Markdown export and in HTML.
  const lines = [
    `- Model: ${shown(summary.model.id)}, revision ${shown(summary.model.revision)} (${same(summary.model.consistent)}).`,
    `- Dataset: ${shown(summary.dataset.id)}, revision ${shown(summary.dataset.revision)}, split ${shown(summary.dataset.split)} (${same(summary.dataset.consistent)}).`,
    `- Reference condition: ${summary.reference}${guessNote(snapshot.report.experiment.reference_basis)}.`,
    '- Conditions:',
    ...summary.conditions.map((c) => {
      const what = c.intervention ? `; intervention ${JSON.stringify(c.intervention)}` : '';
      return `  - ${c.name} (${c.role ?? 'unknown role'}${what}): run ${c.run_id}, n = ${c.n} ${c.n === 1 ? 'example' : 'examples'}, seed ${shown(c.seed)}.`;
    }),
    `- Seed of the reference run: ${shown(summary.seed)}.`,
    `- Statistics: ${snapshot.bootstrap.method}`,
    `- Checker version: ${summary.checker_version}.`,
  ];
  return lines.join('\n');
}

/** Candidate limitations not already in the list (by text), proposed for the researcher to judge. */
export function proposedLimitations(existing: Limitation[], candidates: string[]): Limitation[] {
  const known = new Set(existing.map((l) => l.text));
  return candidates
    .filter((text) => !known.has(text))
    .map((text) => ({ id: randomUUID(), text, origin: 'candidate', status: 'proposed' }));
}

export function experimentCandidates(db: Db, evidence: Evidence): string[] {
  return candidateLimitations(
    loadExperiment(db, evidence.plan.experimentId),
    evidence.answer.report,
  );
}

export function draftBody(db: Db, evidence: Evidence): { title: string; body: FindingBody } {
  const { plan, answer } = evidence;
  const experiment = loadExperiment(db, plan.experimentId);
  const runs = plan.conditions.map((c) => loadRun(db, c.runId, c.name, c.role).run);
  const snapshot = snapshotOf(db, evidence);
  const summary = protocolSummary(experiment, runs, answer.report);
  const title = (experiment.claim?.trim().split('\n')[0] || `Finding: ${experiment.name}`).slice(
    0,
    200,
  );
  return {
    title,
    body: {
      question: experiment.question ?? '',
      claim: experiment.claim ?? '',
      protocol: protocolText(summary, snapshot),
      conclusion: '',
      limitations: proposedLimitations([], candidateLimitations(experiment, answer.report)),
      pinned: [],
      snapshot,
    },
  };
}
