import type { ImportedExample, JsonObject } from '../../../../shared/model';
import { isRecord, jsonValue, str } from './json-values';

/**
 * Inspect AI shapes shared by the Inspect importer and by REPS runs of Inspect programs, which
 * vendor Inspect's message and score types (docs/formats-inspect.md).
 */

/** Maps an `attachment://…` reference to its text; identity when there is nothing to resolve. */
export type Resolve = (text: string) => string;

export const noAttachments: Resolve = (text) => text;

/**
 * Text of a message's content: a plain string, or the text parts of a content list joined the
 * way Inspect's `ChatMessage.text` joins them. Reasoning, images and tool parts are not the
 * words the model said, so they are left out.
 */
export function contentText(content: unknown, resolve: Resolve): string {
  if (typeof content === 'string') return resolve(content);
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') {
      texts.push(resolve(part.text));
    }
  }
  return texts.join('\n');
}

function messageList(messages: unknown): Record<string, unknown>[] {
  return Array.isArray(messages) ? messages.filter(isRecord) : [];
}

export function messagesText(messages: unknown, resolve: Resolve): string {
  return messageList(messages)
    .map((message) => contentText(message.content, resolve))
    .filter((text) => text !== '')
    .join('\n\n');
}

export function firstUserText(messages: unknown, resolve: Resolve): string {
  const user = messageList(messages).find((message) => message.role === 'user');
  return user ? contentText(user.content, resolve) : messagesText(messages, resolve);
}

export function lastAssistantText(messages: unknown, resolve: Resolve): string {
  const assistant = messageList(messages)
    .reverse()
    .find((message) => message.role === 'assistant');
  return assistant ? contentText(assistant.content, resolve) : '';
}

/**
 * A ModelOutput's text. Logs before ~0.3.50 did not serialise `completion`, so the first
 * choice's message is the fallback.
 */
export function outputText(output: unknown, resolve: Resolve): string {
  if (!isRecord(output)) return '';
  const completion = str(output.completion);
  if (completion) return resolve(completion);
  const first = Array.isArray(output.choices) ? output.choices[0] : undefined;
  return isRecord(first) && isRecord(first.message)
    ? contentText(first.message.content, resolve)
    : '';
}

/** A list target (several acceptable answers) is kept as JSON so no answer boundary is lost. */
export function targetText(target: unknown): string | null {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) return JSON.stringify(target);
  return null;
}

/** REPS runs of Inspect programs: epoch 1 keeps the bare id so single-epoch runs match other formats. */
export function exampleId(id: string | number, epoch: number | null): string {
  return epoch !== null && epoch > 1 ? `${id}#${epoch}` : String(id);
}

/**
 * One field per scorer. A dict-valued score becomes `scorer/key` fields, the naming REPS uses
 * for the same scores, so both sources of one eval line up. Letter grades stay strings:
 * converting them is a choice the comparison makes, not the importer.
 */
export function scoreFields(scores: unknown): JsonObject {
  const fields: JsonObject = {};
  if (!isRecord(scores)) return fields;
  for (const [scorer, score] of Object.entries(scores)) {
    const value = isRecord(score) ? score.value : undefined;
    if (isRecord(value)) {
      for (const [key, item] of Object.entries(value)) fields[`${scorer}/${key}`] = jsonValue(item);
    } else {
      fields[scorer] = jsonValue(value);
    }
  }
  return fields;
}

const MEAN_METRICS = new Set(['accuracy', 'mean']);

/**
 * Inspect's `accuracy` and `mean` are the mean of one score's per-sample values (after
 * value_to_float), so a comparison can re-estimate them from that example field. Other metrics
 * (stderr, custom ones) cannot be, so they get no field.
 */
export function meanOfField(
  metric: string,
  candidates: string[],
  fieldNames: ReadonlySet<string>,
): string | null {
  if (!MEAN_METRICS.has(metric)) return null;
  return candidates.find((field) => fieldNames.has(field)) ?? null;
}

export function fieldNamesOf(examples: ImportedExample[]): Set<string> {
  const names = new Set<string>();
  for (const example of examples) for (const name of Object.keys(example.fields)) names.add(name);
  return names;
}

/** The index keeps one row per example id, so a repeated id keeps its last record. */
export function dedupeExamples(examples: ImportedExample[], warnings: string[]): ImportedExample[] {
  const byId = new Map<string, ImportedExample>();
  const repeated = new Set<string>();
  for (const example of examples) {
    if (byId.has(example.id)) repeated.add(example.id);
    byId.set(example.id, example);
  }
  if (repeated.size > 0) {
    const list = [...repeated].slice(0, 5).join(', ');
    warnings.push(
      `${repeated.size} example id(s) appear more than once (${list}${repeated.size > 5 ? ', …' : ''}); the last record of each was kept`,
    );
  }
  return [...byId.values()];
}
