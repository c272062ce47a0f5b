import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ImportedRun } from '../../../../shared/model';
import { warnNonFinite } from '../non-finite';
import {
  decodeText,
  isAbortError,
  parseJson,
  parsePythonJson,
  readHead,
  readTextFile,
} from '../read';
import { ImportProblem, type ImportContext, type ImportOutcome, type SourceUnit } from '../types';
import {
  importGenericCsv,
  importGenericJsonl,
  looksLikeGenericCsv,
  looksLikeGenericJsonl,
} from './generic';
import { importInspectEval, importInspectJson, isInspectJsonLog } from './inspect';
import { importLighteval, isLightevalDetailsName } from './lighteval';
import { importLmEval, isLmEvalResults, isOrphanSamplesUnit } from './lmeval';
import { resultsDateId } from './lmeval-files';
import { importMechlens, isMechlensRecord, MECHLENS_RUNS_DIR } from './mechlens';
import { importPromptfoo, isPromptfooOutput } from './promptfoo';
import { importRepsRun } from './reps';

/**
 * Chooses an importer by content (docs/architecture.md, "Which importer reads a file"). A file no
 * importer recognises is skipped silently; a recognised file that cannot be imported is an
 * ImportProblem tagged with the importer's name. Nothing else escapes: an unexpected error is
 * reported as a Pairwise bug.
 */

/** Bump an importer's version when its output changes, so stored sources are imported again. */
export const importerVersions: Record<string, string> = {
  mechlens: '2',
  reps: '3',
  inspect: '3',
  'lm-eval': '3',
  lighteval: '2',
  promptfoo: '2',
  jsonl: '3',
  csv: '3',
};

const SNIFF_BYTES = 64 * 1024;
const TELLTALE_BYTES = 1024;
const INSPECT_LOG_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}[:-]\d{2}[:-]\d{2}.*\.json$/;
const TELLTALE_KEYS =
  /"(examples|metric_definitions|evalId|promptIdx|lm_eval_version|n-shot|higher_is_better|configs|eval)"\s*:/;

async function using(
  importer: string,
  ctx: ImportContext,
  work: () => Promise<ImportedRun[]> | ImportedRun[],
): Promise<ImportOutcome> {
  try {
    const runs = await work();
    // Python's NaN/Infinity (lm-eval, Inspect) and overflowing literals such as 1e309 (any
    // format) are read as missing, never dropped silently.
    warnNonFinite(runs);
    return { status: 'imported', importer, runs };
  } catch (error) {
    if (ctx.signal.aborted || isAbortError(error)) throw error;
    if (error instanceof ImportProblem) {
      throw error.importer ? error : new ImportProblem(error.message, importer);
    }
    const detail = error instanceof Error ? error.message : String(error);
    throw new ImportProblem(
      `unexpected error in the ${importer} importer (a bug in Pairwise; please report it): ${detail}`,
      importer,
    );
  }
}

/** Whether a .json file that failed to read is worth a problem rather than a silent skip. */
async function looksLikeRunFile(file: string): Promise<boolean> {
  const name = path.basename(file);
  if (
    MECHLENS_RUNS_DIR.test(file) ||
    name === 'output.json' ||
    resultsDateId(name) ||
    INSPECT_LOG_NAME.test(name)
  ) {
    return true;
  }
  try {
    return TELLTALE_KEYS.test(Buffer.from(await readHead(file, TELLTALE_BYTES)).toString('latin1'));
  } catch {
    return false;
  }
}

/**
 * Strict JSON first. A file that fails only on Python's NaN / Infinity is read again with them
 * allowed, and kept only when it is from a tool that writes them (lm-eval, Inspect); anything
 * else (MechLens records among them) keeps the strict refusal.
 */
function parseRunJson(text: string): unknown {
  try {
    return parseJson(text);
  } catch (strict) {
    if (!(strict instanceof ImportProblem)) throw strict;
    let value: unknown;
    try {
      value = parsePythonJson(text);
    } catch {
      throw strict;
    }
    if (isLmEvalResults(value) || isInspectJsonLog(value)) return value;
    throw strict;
  }
}

async function readJson(file: string, ctx: ImportContext): Promise<{ value: unknown } | null> {
  try {
    const text = ctx.read
      ? decodeText(ctx.read.bytes)
      : await readTextFile(file, { signal: ctx.signal });
    ctx.onBytes?.(Buffer.byteLength(text));
    return { value: parseRunJson(text) };
  } catch (error) {
    if (!(error instanceof ImportProblem) || (await looksLikeRunFile(file))) throw error;
    return null;
  }
}

async function sniffJson(file: string, value: unknown, ctx: ImportContext): Promise<ImportOutcome> {
  if (isInspectJsonLog(value))
    return using('inspect', ctx, () => importInspectJson(value, { path: file }));
  if (isMechlensRecord(value, file)) {
    return using('mechlens', ctx, async () => [
      importMechlens(value, {
        path: file,
        mtimeMs: ctx.read?.mtimeMs ?? (await stat(file)).mtimeMs,
      }),
    ]);
  }
  if (isLmEvalResults(value)) {
    const unit: SourceUnit = { path: file, kind: 'file', files: [file] };
    return using('lm-eval', ctx, () => importLmEval(unit, ctx, value));
  }
  if (isPromptfooOutput(value))
    return using('promptfoo', ctx, () => importPromptfoo(value, { path: file }));
  return { status: 'skipped' };
}

/** The first non-blank line of a text file, from its first 64 KB (enough to judge it by). */
async function firstLine(file: string): Promise<string | null> {
  let head: Uint8Array;
  try {
    head = await readHead(file, SNIFF_BYTES);
  } catch {
    return null;
  }
  const text = new TextDecoder('utf-8').decode(head);
  return text.split(/\r?\n/).find((line) => line.trim() !== '') ?? null;
}

export async function importUnit(unit: SourceUnit, ctx: ImportContext): Promise<ImportOutcome> {
  if (unit.kind === 'reps-run') return using('reps', ctx, () => importRepsRun(unit, ctx));
  const file = unit.path;
  const extension = path.extname(file).toLowerCase();
  if (unit.kind === 'lm-eval' && isOrphanSamplesUnit(unit))
    return using('lm-eval', ctx, () => importLmEval(unit, ctx));
  if (unit.kind === 'lm-eval' || extension === '.json') {
    const parsed = await readJson(file, ctx);
    if (!parsed) return { status: 'skipped' };
    if (unit.kind === 'lm-eval' && isLmEvalResults(parsed.value)) {
      return using('lm-eval', ctx, () => importLmEval(unit, ctx, parsed.value));
    }
    return sniffJson(file, parsed.value, ctx);
  }
  if (extension === '.eval') {
    const head = await readHead(file, 4).catch(() => new Uint8Array(0));
    const isZip = head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
    return isZip
      ? using('inspect', ctx, () => importInspectEval(file, ctx))
      : { status: 'skipped' };
  }
  if (extension === '.parquet') {
    if (!isLightevalDetailsName(file)) return { status: 'skipped' };
    return using('lighteval', ctx, async () => [await importLighteval(file, ctx)]);
  }
  if (extension === '.jsonl') {
    const line = await firstLine(file);
    if (line === null || !looksLikeGenericJsonl(line)) return { status: 'skipped' };
    return using('jsonl', ctx, async () => [await importGenericJsonl(file, ctx)]);
  }
  if (extension === '.csv') {
    const line = await firstLine(file);
    if (line === null || !looksLikeGenericCsv(line)) return { status: 'skipped' };
    return using('csv', ctx, async () => [await importGenericCsv(file, ctx)]);
  }
  return { status: 'skipped' };
}
