import { serveTasks } from '../core/jobs/worker-runtime';
import { importUnitFile, type ImportTask } from '../core/ingest/import-task';

serveTasks(async (payload, ctx) => importUnitFile(payload as ImportTask, ctx.signal));
