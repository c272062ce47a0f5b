import type { SavedRevision } from '../../../shared/findings';
import type { PairwiseService } from '../service';
import type { HandlersOf } from './types';

/**
 * `findings:*`, `sync:*`, `jobs:*`: drafting findings, sending them, and the jobs behind both. A
 * finding leaves with its report counted (FindingsService.open): the app never reads the id lists.
 */
export function findingsSyncHandlers(
  service: PairwiseService,
): HandlersOf<'findings' | 'sync' | 'jobs'> {
  const open = (saved: SavedRevision) => service.findings.open(saved.finding.id, saved.revision);
  return {
    'findings:list': ({ experimentId }) => service.findings.list(experimentId),
    'findings:create': async (settings) => open(await service.findings.create(settings)),
    'findings:get': ({ findingId, revision }) => service.findings.open(findingId, revision),
    'findings:save': ({ findingId, body, baseRevision, title }) =>
      service.findings.save(findingId, body, baseRevision, title),
    'findings:revisions': ({ findingId }) => service.findings.revisions(findingId),
    'findings:restore': ({ findingId, revision }) =>
      open(service.findings.restore(findingId, revision)),
    'findings:staleness': ({ findingId }) => service.findings.staleness(findingId),
    'findings:refresh': async ({ findingId }) => open(await service.findings.refresh(findingId)),
    'findings:export': ({ findingId, format, revision }) =>
      service.findings.export(findingId, format, revision),
    'findings:pin': ({ findingId, ...ref }) => open(service.findings.pin(findingId, ref)),
    'sync:status': ({ limit }) => service.sync.status(limit),
    'sync:configure': (input) => service.sync.configure(input),
    'sync:run': async ({ dryRun, experimentIds }) => ({
      plan: service.sync.plan(experimentIds),
      jobId: dryRun ? null : await service.sync.start(experimentIds),
    }),
    'sync:retryNow': ({ id }) => service.sync.retryNow(id),
    'jobs:list': () => service.jobs.list(),
    'jobs:cancel': ({ jobId }) => ({ cancelled: service.jobs.cancel(jobId) }),
  };
}
