import {
  listConditions,
  listExperiments,
  setConditionRole,
  setConditionSeries,
  setRepresentative,
  setRunOverride,
} from '../experiments';
import {
  groupRunsBy,
  lastGrouping,
  previewGrouping,
  settingsFields,
  undoGrouping,
} from '../grouping';
import { listRuns } from '../library';
import type { PairwiseService } from '../service';
import type { HandlersOf } from './types';

/**
 * `runs:*`, `experiments:*`, `conditions:*`, `settings:*`: how runs are grouped into
 * experiments and conditions, and the hand-made choices that change it. Every change says
 * `index:changed`, so each view refreshes.
 */
export function workbenchHandlers(
  service: PairwiseService,
): HandlersOf<'runs' | 'experiments' | 'conditions' | 'settings'> {
  const db = () => service.db;
  const changed = <T>(value: T): T => {
    service.changed();
    return value;
  };
  return {
    'runs:list': ({ experimentId }) => listRuns(db(), experimentId),
    'experiments:list': () => listExperiments(db()),
    'conditions:list': ({ experimentId }) => listConditions(db(), experimentId),
    'conditions:setRole': ({ experimentId, condition, role }) => {
      setConditionRole(db(), experimentId, condition, role);
      return changed({ ok: true as const });
    },
    'conditions:setRepresentative': ({ experimentId, condition, runId }) => {
      setRepresentative(db(), experimentId, condition, runId);
      return changed({ ok: true as const });
    },
    'conditions:setSeries': ({ experimentId, condition, series, level }) => {
      setConditionSeries(db(), experimentId, condition, series, level);
      return changed({ ok: true as const });
    },
    'runs:setOverride': ({ runId, role, condition }) => {
      setRunOverride(db(), runId, { role, condition });
      return changed({ ok: true as const });
    },
    'runs:groupBy': ({ experimentId, field }) =>
      changed({ conditions: groupRunsBy(db(), experimentId, field) }),
    'runs:groupPreview': ({ experimentId, field }) => previewGrouping(db(), experimentId, field),
    'runs:groupUndo': ({ experimentId }) => {
      const undone = undoGrouping(db(), experimentId);
      if (undone) service.changed();
      return { undone };
    },
    'runs:lastGrouping': ({ experimentId }) => lastGrouping(db(), experimentId),
    'settings:fields': ({ experimentId }) => settingsFields(db(), experimentId),
  };
}
