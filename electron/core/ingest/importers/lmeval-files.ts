import path from 'node:path';
import { readJsonLines } from '../json-lines';
import { parsePythonJson, readHead, readTextFile } from '../read';
import { ImportProblem, type ImportContext } from '../types';

/**
 * The files lm-evaluation-harness writes, by name, and how to read a samples file whatever
 * the version that wrote it (docs/formats-lmeval.md).
 */

/** `datetime.now().isoformat().replace(":", "-")`: the suffix of every file lm-eval writes. */
const DATE_ID = String.raw`\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?`;
const RESULTS_NAME = new RegExp(String.raw`^(.+)_(${DATE_ID})\.json$`);
/** JSON Lines, named .json for a few weeks of 2024 and .jsonl since. */
const SAMPLES_NAME = new RegExp(String.raw`^samples_(.+)_(${DATE_ID})\.jsonl?$`);

/** The name lm-eval 0.4.0–0.4.2 gives the results file in the --output_path folder. */
export const OLD_RESULTS_NAME = 'results.json';

export function samplesFileTask(fileName: string): { task: string; dateId: string } | null {
  const match = SAMPLES_NAME.exec(fileName);
  return match ? { task: match[1]!, dateId: match[2]! } : null;
}

/**
 * The date id of an aggregated results file: `results_<date_id>.json`, or `<stem>_<date_id>.json`
 * when --output_path named a .json file. A samples file is never a results file.
 */
export function resultsDateId(fileName: string): string | null {
  if (samplesFileTask(fileName)) return null;
  return RESULTS_NAME.exec(fileName)?.[2] ?? null;
}

/**
 * Whether a name can be a 0.4.0–0.4.2 samples file, `<model_args>_<task>.jsonl`: those
 * versions replace every "/" and "=" of model_args with "__", and model_args always holds a
 * "key=value", so the name holds "__".
 */
export function isOldSamplesName(fileName: string): boolean {
  return fileName.endsWith('.jsonl') && fileName.includes('__') && !samplesFileTask(fileName);
}

/** What 0.4.0–0.4.2 made of model_args in a samples file name. */
function sanitizedModelArgs(modelArgs: string): string {
  return modelArgs.replace(/[/=]/g, '__');
}

/**
 * The task a samples file holds: from `samples_<task>_<date>.json[l]`, else from the old
 * `<model_args>_<task>.jsonl` (the name built from the run's own model_args first, else the
 * longest task name the file name ends with).
 */
export function taskOfSamplesFile(
  fileName: string,
  tasks: string[],
  modelArgs: string | null,
): string | null {
  const current = samplesFileTask(fileName)?.task;
  if (current !== undefined) return tasks.includes(current) ? current : null;
  if (!isOldSamplesName(fileName)) return null;
  const stem = fileName.slice(0, -'.jsonl'.length);
  if (modelArgs !== null) {
    const exact = tasks.find((task) => stem === `${sanitizedModelArgs(modelArgs)}_${task}`);
    if (exact !== undefined) return exact;
  }
  const endings = tasks.filter((task) => stem.endsWith(`_${task}`));
  return endings.sort((a, b) => b.length - a.length)[0] ?? null;
}

const PEEK_BYTES = 64 * 1024;

/**
 * Calls onRecord for every sample of a samples file, which is JSON Lines (`.jsonl`, and
 * `.json` in mid-2024) or, from 0.4.0–0.4.2, one JSON array (pretty-printed, under a `.jsonl`
 * name). The first character tells which. Python's NaN and Infinity are read as numbers.
 * Returns the warnings of the read, each naming the file.
 */
export async function readSamplesFile(
  file: string,
  onRecord: (sample: unknown, where: string) => void,
  ctx: ImportContext,
): Promise<string[]> {
  const label = path.basename(file);
  const named = (error: unknown): unknown =>
    error instanceof ImportProblem ? new ImportProblem(`${label}: ${error.message}`) : error;
  const head = Buffer.from(
    await readHead(file, PEEK_BYTES).catch((e: unknown) => Promise.reject(named(e))),
  );
  if (head.toString('utf8').trimStart().startsWith('[')) {
    try {
      const text = await readTextFile(file, { signal: ctx.signal });
      ctx.onBytes?.(Buffer.byteLength(text));
      const samples = parsePythonJson(text);
      if (!Array.isArray(samples)) throw new ImportProblem('expected a JSON array of samples');
      samples.forEach((sample, i) => onRecord(sample, `sample ${(i + 1).toLocaleString('en-US')}`));
    } catch (error) {
      throw named(error);
    }
    return [];
  }
  try {
    const read = await readJsonLines(
      file,
      (line, lineNo) => onRecord(line, `line ${lineNo.toLocaleString('en-US')}`),
      { signal: ctx.signal, onBytes: ctx.onBytes, nonFinite: true },
    );
    return read.warnings.map((warning) => `${label}: ${warning}`);
  } catch (error) {
    throw named(error);
  }
}
