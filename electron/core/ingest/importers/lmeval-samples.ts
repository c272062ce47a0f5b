import type { ImportedExample, JsonObject, JsonValue } from '../../../../shared/model';
import { ImportProblem } from '../types';
import { isRecord, str } from './json-values';
import { describeType } from './mechlens';

/**
 * lm-eval samples → examples. A samples file has one record per (doc, filter); records of one
 * doc merge into one example whose fields are named like the results' metric keys
 * ("exact_match,strict-match"), so each reported metric links to its per-example field.
 *
 * Loglikelihood requests answer with a log-probability per choice, which shifts in its last
 * digits between batch sizes; the output is the answer those scores pick, as lm-eval's own
 * metrics pick it, and the scores themselves are kept as array fields (which are never
 * compared as criteria).
 */

export type OutputType =
  'generate_until' | 'multiple_choice' | 'loglikelihood' | 'loglikelihood_rolling';

/** What the samples need from the task's config in the results file. */
export interface TaskHints {
  outputType: OutputType | null;
  /** Put between the context and each choice; lm-eval's default is a space. */
  targetDelimiter: string;
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Request arguments: `{gen_args_N: {arg_0, arg_1}}` in current versions, `[[arg_0, arg_1], …]`
 * in older ones.
 */
function argument(args: unknown, request: number, position: 0 | 1): string | null {
  if (isRecord(args)) {
    const entry = args[`gen_args_${request}`];
    return isRecord(entry) ? str(entry[`arg_${position}`]) : null;
  }
  const entry: unknown = Array.isArray(args) ? args[request] : undefined;
  return Array.isArray(entry) ? str(entry[position]) : null;
}

/** lm-eval stringifies most numbers it logs; anything but a number or numeric text is NaN. */
export function numeric(value: unknown): number {
  return typeof value === 'number' || typeof value === 'string' ? Number(value) : NaN;
}

function greedyFlag(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  return value === 'True' ? true : value === 'False' ? false : null;
}

interface Scores {
  loglikelihoods: number[];
  greedy: (boolean | null)[];
}

/** Per-request `[loglikelihood, is_greedy]` pairs, or null when the responses are not that. */
function scoresOf(filtered: unknown): Scores | null {
  if (!Array.isArray(filtered) || filtered.length === 0) return null;
  const scores: Scores = { loglikelihoods: [], greedy: [] };
  for (const pair of filtered) {
    if (!Array.isArray(pair) || pair.length !== 2) return null;
    const score = numeric(pair[0]);
    if (Number.isNaN(score)) return null;
    scores.loglikelihoods.push(score);
    scores.greedy.push(greedyFlag(pair[1]));
  }
  return scores;
}

/** numpy's argmax: the first index of the largest value. */
function argmax(values: number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

const SAMPLE_KEYS = new Set([
  'doc_id',
  'doc',
  'target',
  'arguments',
  'resps',
  'filtered_resps',
  'filter',
  'metrics',
  'doc_hash',
  'prompt_hash',
  'target_hash',
]);

function metricNames(line: Record<string, unknown>): string[] {
  if (Array.isArray(line.metrics))
    return line.metrics.filter((m): m is string => typeof m === 'string');
  // Older harness versions have no `metrics` list: every other scalar key is a metric.
  return Object.keys(line).filter((key) => !SAMPLE_KEYS.has(key) && typeof line[key] !== 'object');
}

export class SampleMerger {
  readonly docs = new Map<string, ImportedExample>();
  private readonly seen = new Set<string>();
  duplicates = 0;

  constructor(private readonly hints: TaskHints) {}

  add(line: unknown, where: string): void {
    if (!isRecord(line))
      throw new ImportProblem(`${where}: expected a JSON object, found ${describeType(line)}`);
    const docId = line.doc_id;
    if (!Number.isSafeInteger(docId) && typeof docId !== 'string') {
      throw new ImportProblem(
        `${where}: "doc_id" should be an integer, but it is ${describeType(docId)}`,
      );
    }
    const id = String(docId);
    const filter = str(line.filter) ?? 'none';
    if (this.seen.has(`${id}\0${filter}`)) {
      this.duplicates++;
      return;
    }
    this.seen.add(`${id}\0${filter}`);
    const scores =
      this.hints.outputType === 'generate_until' ? null : scoresOf(line.filtered_resps);
    let example = this.docs.get(id);
    if (!example) {
      example = {
        id,
        input: argument(line.arguments, 0, 0) ?? str(line.prompt) ?? textOf(line.doc),
        output: '',
        fields: {},
        target: line.target === undefined ? null : textOf(line.target),
        error: null,
      };
      if (scores) this.answerFromScores(example, line, scores);
      else if (this.hints.outputType === 'loglikelihood_rolling') {
        // Perplexity tasks score the document itself: there is no answer, only its score.
        const filtered: unknown[] = Array.isArray(line.filtered_resps) ? line.filtered_resps : [];
        example.fields.loglikelihoods = filtered.map((value) => {
          const score = numeric(value);
          return Number.isNaN(score) ? null : score;
        });
      } else example.output = generated(line);
      this.docs.set(id, example);
    }
    for (const metric of metricNames(line)) {
      if (metric in line) example.fields[`${metric},${filter}`] = line[metric] as JsonValue;
    }
    const answer: unknown = Array.isArray(line.filtered_resps) ? line.filtered_resps[0] : undefined;
    if (!scores && typeof answer === 'string') example.fields[`response,${filter}`] = answer;
  }

  private answerFromScores(
    example: ImportedExample,
    line: Record<string, unknown>,
    scores: Scores,
  ): void {
    const fields: JsonObject = example.fields;
    fields.choice_loglikelihoods = scores.loglikelihoods;
    if (scores.greedy.every((flag) => flag !== null)) fields.choice_is_greedy = scores.greedy;
    const continuation = (request: number): string => argument(line.arguments, request, 1) ?? '';
    const type =
      this.hints.outputType ??
      (scores.loglikelihoods.length > 1 ? 'multiple_choice' : 'loglikelihood');
    if (type === 'loglikelihood') {
      // One continuation, scored by whether greedy decoding produces it (lm-eval's `acc`).
      const greedy = scores.greedy[0];
      example.output = greedy === false ? `not greedy: ${continuation(0)}` : continuation(0);
      return;
    }
    if (type !== 'multiple_choice') return;
    const delimiter = this.hints.targetDelimiter;
    const choices = scores.loglikelihoods.map((_, i) => {
      const text = continuation(i);
      return text.startsWith(delimiter) ? text.slice(delimiter.length) : text;
    });
    // `acc` takes the likeliest choice; `acc_norm` divides each score by its choice's length.
    example.output = choices[argmax(scores.loglikelihoods)]!;
    if ('acc_norm' in line || (Array.isArray(line.metrics) && line.metrics.includes('acc_norm'))) {
      fields.answer_norm =
        choices[argmax(scores.loglikelihoods.map((ll, i) => ll / choices[i]!.length))]!;
    }
  }
}

/** A generation task's output: the model's raw text, before any filter. */
function generated(line: Record<string, unknown>): string {
  const first: unknown = Array.isArray(line.resps) ? line.resps[0] : undefined;
  const raw: unknown = Array.isArray(first) ? first[0] : first;
  return typeof raw === 'string' ? raw : textOf(line.filtered_resps);
}
