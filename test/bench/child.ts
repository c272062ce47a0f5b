/**
 * One benchmark phase in a fresh process: `node --import tsx child.ts <phase> <args.json>
 * <result.json>`. A fresh process per phase keeps peak RSS, JIT state and GC history of one
 * measurement out of the next. Phases are imported on demand, so that (say) vite and
 * Chromium's driver never sit in the heap of the indexing phase whose RSS we report.
 */

import fs from 'node:fs';
import { adoptBuiltWorkers } from './built-workers';

type Phase = (args: never) => Promise<unknown>;

const phases: Record<string, () => Promise<Phase>> = {
  baseline: async () => (await import('./phase-index')).baselinePhase,
  index: async () => (await import('./phase-index')).indexPhase,
  'index-opened': async () => (await import('./phase-index')).indexOpenedPhase,
  compare: async () => (await import('./phase-compare')).comparePhase,
  explorer: async () => (await import('./phase-explorer')).explorerPhase,
  renderer: async () => (await import('./phase-renderer')).rendererPhase,
  'library-open': async () => (await import('./phase-library-open')).libraryOpenPhase,
  duckdb: async () => (await import('./phase-duckdb')).duckdbPhase,
  search: async () => (await import('./phase-search')).searchPhase,
};

/**
 * CPU of this process (all threads: workers, DuckDB's) and of its waited-for children (the
 * renderer phase's Chromium), so that "others" in the report means other people's work.
 */
function ownCpuSeconds(): number {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    // Fields after the ")" that closes the command name: utime is the 12th, then stime, cutime, cstime.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
  } catch {
    const cpu = process.cpuUsage();
    return (cpu.user + cpu.system) / 1e6;
  }
}

async function main(): Promise<void> {
  const [name, argsFile, resultFile] = process.argv.slice(2);
  const load = phases[name ?? ''];
  if (!load || !argsFile || !resultFile) throw new Error(`usage: child.ts <phase> <args> <result>`);
  adoptBuiltWorkers();
  const phase = await load();
  const value = await phase(JSON.parse(fs.readFileSync(argsFile, 'utf8')) as never);
  fs.writeFileSync(resultFile, JSON.stringify({ value, cpuSeconds: ownCpuSeconds() }));
}

main().then(
  // Idle pool workers are unref'd, but an exit here makes sure nothing lingers between phases.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
