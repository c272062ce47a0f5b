import type { Comparison, MetricComparison, Report } from '../../../shared/compare/types';
import type { Snapshot, Staleness } from '../../../shared/findings';
import { planComparison } from '../compare/plan';
import type { ComparisonRunner } from '../compare/runner';
import { reportKey } from '../compare/store';
import type { Db } from '../db/open';

/**
 * Whether a finding's evidence still holds: the snapshot's runs and source hashes against what
 * is indexed now, and when they differ, the current report's numbers against the snapshot's.
 * Nothing is updated here; refreshing is the researcher's explicit act (findings:refresh).
 */

type MetricValue = Staleness['changes'][number]['before'];

function label(c: Comparison): string {
  return `${c.candidate.condition} vs ${c.reference.condition}`;
}

function valueOf(metric: MetricComparison | undefined): MetricValue {
  if (!metric) return null;
  return {
    difference: metric.paired?.difference ?? metric.reported.difference,
    ci95: metric.paired?.ci95 ?? null,
    n: metric.paired?.n ?? null,
    verdict: metric.verdict,
  };
}

function metricsByKey(
  report: Report,
): Map<string, { comparison: string; metric: string; value: MetricValue }> {
  const out = new Map<string, { comparison: string; metric: string; value: MetricValue }>();
  for (const c of report.comparisons)
    for (const m of c.metrics)
      out.set(`${label(c)}\0${m.name}`, {
        comparison: label(c),
        metric: m.name,
        value: valueOf(m),
      });
  return out;
}

/** Every metric whose difference, interval, n or verdict moved (or that appeared or went). */
function metricChanges(before: Report, after: Report | null): Staleness['changes'] {
  const a = metricsByKey(before);
  const b = after ? metricsByKey(after) : new Map<string, never>();
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  return keys.flatMap((key) => {
    const x = a.get(key);
    const y = b.get(key);
    const changed = JSON.stringify(x?.value ?? null) !== JSON.stringify(y?.value ?? null);
    if (!changed) return [];
    const named = (x ?? y)!;
    return [
      {
        metric: named.metric,
        comparison: named.comparison,
        before: x?.value ?? null,
        after: y?.value ?? null,
      },
    ];
  });
}

export async function staleness(
  db: Db,
  compare: ComparisonRunner,
  snapshot: Snapshot,
): Promise<Staleness> {
  const settings = snapshot.settings;
  let plan: ReturnType<typeof planComparison> | null;
  try {
    plan = planComparison(db, settings.experimentId, settings);
  } catch {
    // The reference condition (or every run) is gone: nothing current to compare with.
    plan = null;
  }
  const now = new Map<string, { condition: string; sha: string | null }>();
  if (plan) {
    const sha = db.prepare(`SELECT source_sha256 FROM runs WHERE id = ?`);
    const pairs = [
      ...plan.conditions.map((c) => [c.runId, c.name] as const),
      ...plan.referenceReplicates.map((id) => [id, plan.reference] as const),
    ];
    for (const [runId, condition] of pairs) {
      const row = sha.get(runId) as { source_sha256: string | null } | undefined;
      now.set(runId, { condition, sha: row?.source_sha256 ?? null });
    }
  }
  const runs: Staleness['runs'] = [];
  const before = new Set<string>();
  for (const r of snapshot.runs) {
    before.add(r.runId);
    const current = now.get(r.runId);
    if (!current) runs.push({ runId: r.runId, condition: r.condition, change: 'removed' });
    else if (current.sha !== r.sourceSha256)
      runs.push({ runId: r.runId, condition: r.condition, change: 'changed' });
  }
  for (const [runId, current] of now)
    if (!before.has(runId)) runs.push({ runId, condition: current.condition, change: 'added' });

  // The key also covers the checker version and condition names: same runs, new rules → stale.
  const stale = runs.length > 0 || !plan || reportKey(db, plan) !== snapshot.reportKey;
  if (!stale) return { stale, runs, changes: [] };
  const current = plan ? (compare.cached(settings) ?? (await compare.run(settings))) : null;
  return { stale, runs, changes: metricChanges(snapshot.report, current?.report ?? null) };
}
