import type { ImportedRun } from '../../../../shared/model';
import { ImportProblem, type ImportContext } from '../types';
import { chunkedPrefixes, readChunkedSample } from './inspect-chunked';
import { noAttachments, type Resolve } from './inspect-common';
import type { EpochRecord } from './inspect-epochs';
import { attachmentResolver, buildInspectRun, NO_SAMPLES, sampleToEpoch } from './inspect-log';
import { BrokenEntry, ZipArchive } from './inspect-zip';
import { isRecord } from './json-values';

/** An EvalLog has a numeric version and an EvalSpec with task and model. */
export function isInspectJsonLog(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.version === 'number' &&
    isRecord(value.eval) &&
    typeof value.eval.task === 'string' &&
    typeof value.eval.model === 'string'
  );
}

function toEpochs(
  samples: unknown[],
  resolveOf: (sample: Record<string, unknown>) => Resolve,
  warnings: string[],
): EpochRecord[] {
  const epochs: EpochRecord[] = [];
  let withoutId = 0;
  for (const sample of samples) {
    const epoch = isRecord(sample) ? sampleToEpoch(sample, resolveOf(sample)) : null;
    if (epoch) epochs.push(epoch);
    else withoutId += 1;
  }
  if (withoutId > 0) warnings.push(`${withoutId} sample(s) have no id and were skipped`);
  return epochs;
}

export function importInspectJson(value: unknown, src: { path: string }): ImportedRun[] {
  if (!isRecord(value) || !isInspectJsonLog(value)) {
    throw new ImportProblem('not an Inspect log: expected "version" and "eval.task".', 'inspect');
  }
  const warnings: string[] = [];
  const samples = Array.isArray(value.samples) ? value.samples : [];
  if (samples.length === 0) warnings.push(NO_SAMPLES);
  const epochs = toEpochs(samples, (sample) => attachmentResolver(sample.attachments), warnings);
  // Logs before ~0.3.40 kept the reduced scores in the results.
  const results = isRecord(value.results) ? value.results : {};
  const reductions = value.reductions ?? results.sample_reductions;
  return [buildInspectRun(value, src.path, epochs, reductions, warnings)];
}

/**
 * The header of a finished log is header.json; an unfinished one has only the journal's
 * start.json (status "started"); the earliest .eval files (2024) had start.json and
 * results.json at the top level.
 */
async function readHeader(archive: ZipArchive): Promise<Record<string, unknown>> {
  const object = async (name: string): Promise<Record<string, unknown>> => {
    const value = await archive.readJson(name);
    if (!isRecord(value) || !isRecord(value.eval)) {
      throw new ImportProblem(`${name} is not an Inspect log header.`, 'inspect');
    }
    return value;
  };
  if (archive.has('header.json')) return object('header.json');
  if (archive.has('_journal/start.json')) {
    return { ...(await object('_journal/start.json')), status: 'started' };
  }
  if (archive.has('start.json') && archive.has('results.json')) {
    const results = await archive.readJson('results.json');
    return { ...(await object('start.json')), ...(isRecord(results) ? results : {}) };
  }
  throw new ImportProblem(
    'not an Inspect .eval log: the archive has neither header.json nor _journal/start.json.',
    'inspect',
  );
}

const natural = new Intl.Collator('en', { numeric: true });

/** Finished logs consolidate summaries; a running one has only the journal's numbered parts. */
async function readSummaries(archive: ZipArchive): Promise<unknown[]> {
  if (archive.has('summaries.json')) {
    const all = await archive.readJson('summaries.json');
    return Array.isArray(all) ? all : [];
  }
  const parts = archive
    .names()
    .filter((name) => /^_journal\/summaries\/\d+\.json$/.test(name))
    .sort(natural.compare);
  let summaries: unknown[] = [];
  for (const name of parts) {
    const part = await archive.readJson(name);
    if (Array.isArray(part)) summaries = summaries.concat(part);
  }
  return summaries;
}

async function readSamples(archive: ZipArchive, warnings: string[]): Promise<EpochRecord[]> {
  const names = archive.names();
  const chunked = new Set(chunkedPrefixes(names));
  const insideChunked = (name: string): boolean => {
    for (let cut = name.indexOf('/'); cut !== -1; cut = name.indexOf('/', cut + 1)) {
      if (chunked.has(name.slice(0, cut))) return true;
    }
    return false;
  };
  const monoliths = names.filter(
    (name) => /^samples\/.+_epoch_\d+\.json$/.test(name) && !insideChunked(name),
  );
  // One name form per sample, and one log may mix both (chunked/format.py).
  const sources = [...monoliths, ...chunked].sort(natural.compare);

  if (sources.length === 0) {
    const summaries = await readSummaries(archive);
    if (summaries.length === 0) {
      warnings.push(NO_SAMPLES);
      return [];
    }
    warnings.push(
      `the log stores no sample files: ${summaries.length} example(s) were built from its sample summaries (input, target and scores, no output)`,
    );
    return toEpochs(summaries, () => noAttachments, warnings);
  }

  const epochs: EpochRecord[] = [];
  const broken: string[] = [];
  let withoutId = 0;
  for (const name of sources) {
    try {
      const { sample, resolve } = chunked.has(name)
        ? await readChunkedSample(archive, name)
        : await readMonolith(archive, name);
      const epoch = sampleToEpoch(sample, resolve);
      if (epoch) epochs.push(epoch);
      else withoutId += 1;
    } catch (error) {
      if (!(error instanceof BrokenEntry)) throw error;
      broken.push(name);
    }
  }
  if (broken.length > 0) {
    warnings.push(
      `${broken.length} sample(s) could not be read and were skipped (${broken.slice(0, 3).join(', ')}${broken.length > 3 ? ', …' : ''})`,
    );
  }
  if (withoutId > 0) warnings.push(`${withoutId} sample(s) have no id and were skipped`);
  return epochs;
}

/** Finished logs hold each score's per-sample values reduced over the epochs. */
async function readReductions(archive: ZipArchive, warnings: string[]): Promise<unknown> {
  if (!archive.has('reductions.json')) return null;
  try {
    return await archive.readJson('reductions.json');
  } catch (error) {
    if (!(error instanceof BrokenEntry)) throw error;
    warnings.push(
      `reductions.json could not be read (${error.message}): scores over several epochs were reduced by Pairwise`,
    );
    return null;
  }
}

async function readMonolith(
  archive: ZipArchive,
  name: string,
): Promise<{ sample: Record<string, unknown>; resolve: Resolve }> {
  const sample = await archive.readJson(name);
  if (!isRecord(sample)) throw new BrokenEntry(`${name} is not a sample.`, 'inspect');
  return { sample, resolve: attachmentResolver(sample.attachments) };
}

/** A `.eval` log (a zip; docs/formats-inspect.md), finished or still being written, as one run. */
export async function importInspectEval(path: string, ctx: ImportContext): Promise<ImportedRun[]> {
  const archive = await ZipArchive.open(path, ctx);
  try {
    const header = await readHeader(archive);
    const warnings: string[] = [];
    const epochs = await readSamples(archive, warnings);
    const reductions = await readReductions(archive, warnings);
    return [buildInspectRun(header, path, epochs, reductions, warnings)];
  } finally {
    archive.close();
  }
}
