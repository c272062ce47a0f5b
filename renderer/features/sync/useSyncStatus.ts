import { useCallback, useEffect, useState } from 'react';
import type { SyncPlan, SyncStatus } from '../../../shared/findings';
import { request, subscribe } from '../../api';
import { useApp } from '../../store';
import { useRequest } from '../../useRequest';
import { scopeLabel } from './syncText';

/**
 * The sync status, asked again whenever the core says it changed, and the endpoint field's
 * text: an empty field takes the endpoint each time the status comes in (it may have been set
 * elsewhere), one the user typed in is left alone.
 */
export function useSyncStatus() {
  const ask = useRequest();
  const [status, setStatus] = useState<SyncStatus | null>(null);
  const [url, setUrl] = useState('');
  const load = useCallback(() => {
    ask('sync:status', {}, (s) => {
      setStatus(s);
      setUrl((current) => current || (s.endpoint ?? ''));
    });
  }, [ask]);
  useEffect(() => {
    load();
    return subscribe('sync:changed', load);
  }, [load]);
  return { status, setStatus, load, url, setUrl };
}

/** "What would be sent?" (a dry run that answers with a plan) and "Sync now" for the scope. */
export function useSyncRun(chosen: string[] | null) {
  const toast = useApp((s) => s.toast);
  const [plan, setPlan] = useState<SyncPlan | null>(null);
  const scope = scopeLabel(chosen);
  const run = async (dryRun: boolean) => {
    try {
      const result = await request('sync:run', {
        dryRun,
        ...(chosen === null ? {} : { experimentIds: chosen }),
      });
      setPlan(dryRun ? result.plan : null);
      if (!dryRun) toast('info', `Syncing ${scope}…`);
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };
  return { plan, closePlan: () => setPlan(null), run, scope };
}
