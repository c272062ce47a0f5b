import type { Trace, TraceStep } from '../../../../shared/trace';
import { contentText, outputText, type Resolve } from './inspect-common';
import { isRecord, str } from './json-values';

/**
 * Bounds that keep a transcript cheap to store and read: a step's text and a section's steps
 * are cut (and say so), so an agent run of thousands of turns stays a few hundred kilobytes.
 */
export const TRACE_TEXT_LIMIT = 8_000;
export const TRACE_STEP_LIMIT = 300;

export function cut(text: string): string {
  return text.length > TRACE_TEXT_LIMIT
    ? `${text.slice(0, TRACE_TEXT_LIMIT)}\n… (${text.length - TRACE_TEXT_LIMIT} more characters)`
    : text;
}

function json(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function section(title: string, steps: TraceStep[]): Trace[number] | null {
  if (steps.length === 0) return null;
  const kept = steps.slice(0, TRACE_STEP_LIMIT).map((s) => ({ label: s.label, text: cut(s.text) }));
  if (steps.length > TRACE_STEP_LIMIT)
    kept.push({ label: '…', text: `${steps.length - TRACE_STEP_LIMIT} more steps not kept` });
  return { title, steps: kept };
}

function toolCalls(message: Record<string, unknown>): string[] {
  if (!Array.isArray(message.tool_calls)) return [];
  return message.tool_calls
    .filter(isRecord)
    .map((call) => `→ ${str(call.function) ?? 'tool'}(${json(call.arguments)})`);
}

/** Chat messages (Inspect's ChatMessage list, or an llm call's input) as steps. */
export function messageSteps(messages: unknown, resolve: Resolve): TraceStep[] {
  if (!Array.isArray(messages)) return [];
  return messages.filter(isRecord).map((message) => {
    const role = str(message.role) ?? 'message';
    const fn = str(message.function);
    const error = isRecord(message.error) ? str(message.error.message) : null;
    const text = [
      contentText(message.content, resolve),
      ...toolCalls(message),
      error ? `error: ${error}` : '',
    ]
      .filter((t) => t !== '')
      .join('\n');
    return { label: fn ? `${role} · ${fn}` : role, text };
  });
}

/** One Inspect event as a step, or null for the bookkeeping ones (state, store, sample_init…). */
function eventStep(event: Record<string, unknown>, resolve: Resolve): TraceStep | null {
  switch (str(event.event)) {
    case 'model': {
      const error = str(event.error);
      return {
        label: `model · ${str(event.model) ?? ''}`.trim(),
        text: outputText(event.output, resolve) || (error ? `error: ${error}` : ''),
      };
    }
    case 'tool':
      return {
        label: `tool · ${str(event.function) ?? ''}`.trim(),
        text: `${json(event.arguments)}\n→ ${json(event.result)}${isRecord(event.error) ? `\nerror: ${json(event.error.message)}` : ''}`,
      };
    case 'score': {
      const score = isRecord(event.score) ? event.score : {};
      return {
        label: 'score',
        text: [json(score.value), str(score.answer), str(score.explanation)]
          .filter((t) => t)
          .join('\n'),
      };
    }
    case 'error':
      return {
        label: 'error',
        text: json(isRecord(event.error) ? event.error.message : event.error),
      };
    case 'info':
      return {
        label: `info${str(event.source) ? ` · ${str(event.source)}` : ''}`,
        text: json(event.data),
      };
    case 'logger':
      return {
        label: 'log',
        text: json(isRecord(event.message) ? event.message.message : event.message),
      };
    case 'sample_limit':
      return { label: 'limit', text: json(event.message) };
    default:
      return null;
  }
}

/** The result part of a tool event's text (`arguments\n→ result`). */
function toolResult(text: string): string {
  const at = text.indexOf('\n→ ');
  return at < 0 ? text : text.slice(at + 3);
}

/** An Inspect sample's messages and the events worth reading, or null when it has neither. */
export function inspectSampleTrace(
  sample: Record<string, unknown>,
  resolve: Resolve,
): Trace | null {
  const messages = messageSteps(sample.messages, resolve);
  // A model event's answer and a tool event's result are usually the messages already shown:
  // an event says only what the messages do not.
  const said = new Set(messages.flatMap((m) => [m.text, m.text.split('\n→ ')[0]!]));
  const events = Array.isArray(sample.events)
    ? sample.events
        .filter(isRecord)
        .flatMap((e) => eventStep(e, resolve) ?? [])
        .filter(
          (step) => step.text !== '' && !said.has(step.text) && !said.has(toolResult(step.text)),
        )
    : [];
  const trace = [section('Messages', messages), section('Events', events)].filter(
    (s): s is Trace[number] => s !== null,
  );
  return trace.length ? trace : null;
}
