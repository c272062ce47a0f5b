import type { JsonObject, JsonValue } from '../../../../shared/model';
import type { Trace, TraceStep } from '../../../../shared/trace';
import { exampleId, firstUserText, noAttachments, outputText } from './inspect-common';
import { int, isRecord, jsonObject, jsonValue, num, str } from './json-values';
import { cut, messageSteps, section, TRACE_STEP_LIMIT } from './trace-steps';

export interface InspectSampleRecord {
  id: string;
  target: unknown;
  scores: JsonObject;
  error: string | null;
  agent: string | null;
}

interface SampleCalls {
  input: string;
  lastOutput: string;
  outputByAgent: Map<string, string>;
  /** The calls as a transcript: each call's new input messages, then its answer. */
  steps: TraceStep[];
  /** How many input messages each agent's calls have shown, so a growing chat is not repeated. */
  shownByAgent: Map<string, number>;
}

/**
 * Folds an events.jsonl stream (docs/formats-reps.md, "The event stream") record by record into
 * what the importer needs, the way REPS's own CardProjection does, so the stream can stand in for a
 * missing or stale run.json ("the stream wins on disagreement").
 */
export class RepsStream {
  records = 0;
  run: string | null = null;
  experiment: string | null = null;
  schema: number | null = null;
  vocabulary: number | null = null;
  start: Record<string, unknown> | null = null;
  startedAt: string | null = null;
  end: Record<string, unknown> | null = null;
  finishedAt: string | null = null;
  lastSeq: number | null = null;
  lastStatus: string | null = null;
  producer: JsonObject | null = null;
  inspectProvenance: JsonObject | null = null;
  readonly results = new Map<string, JsonValue>();
  readonly inspectMetrics: JsonObject = {};
  readonly samples: InspectSampleRecord[] = [];
  readonly servedModels = new Set<string>();
  readonly usage = { input_tokens: 0, output_tokens: 0 };
  readonly byKind: Record<string, number> = {};
  llmCalls = 0;
  failedCalls = 0;

  private readonly calls = new Map<string, SampleCalls>();
  private notEnvelopes = 0;
  private seqBreaks = 0;
  private readonly mixedEnvelope = new Set<string>();

  add(value: unknown): void {
    const event = isRecord(value) ? value.event : undefined;
    if (!isRecord(value) || !isRecord(event)) {
      this.notEnvelopes += 1;
      return;
    }
    this.records += 1;
    this.checkEnvelope(value);
    const type = str(event.type) ?? 'unknown';
    const kind = type === 'custom' ? (str(event.kind) ?? 'custom') : type;
    this.byKind[kind] = (this.byKind[kind] ?? 0) + 1;
    switch (type) {
      case 'run.start':
        this.start = event;
        this.startedAt = str(value.ts);
        break;
      case 'run.end':
        this.end = event;
        this.finishedAt = str(value.ts);
        break;
      case 'result': {
        const name = str(event.name);
        if (name !== null) this.results.set(name, jsonValue(event.value));
        break;
      }
      case 'status':
        this.lastStatus = str(event.detail) ?? this.lastStatus;
        break;
      case 'producer.python':
        this.producer = withoutType(event);
        break;
      case 'llm.call':
        this.addCall(event);
        break;
      case 'custom':
        this.addCustom(kind, event.data);
        break;
    }
  }

  /** Input and output of an Inspect sample, from the model calls tagged with its id and epoch. */
  textsOf(sample: InspectSampleRecord): { input: string; output: string } {
    const calls = this.calls.get(sample.id);
    if (!calls) return { input: '', output: '' };
    // A model-graded scorer's calls carry the same sample tag; the solver's agent is the
    // sample's own, so its last call is the answer that was scored.
    const own = sample.agent !== null ? calls.outputByAgent.get(sample.agent) : undefined;
    return { input: calls.input, output: own ?? calls.lastOutput };
  }

  /** The sample's model calls as a readable transcript, or null when none is tagged with it. */
  traceOf(sample: InspectSampleRecord): Trace | null {
    const calls = this.calls.get(sample.id);
    const calling = calls ? section('Model calls', calls.steps) : null;
    return calling ? [calling] : null;
  }

  warnings(): string[] {
    const warnings: string[] = [];
    if (this.notEnvelopes > 0) {
      warnings.push(`${this.notEnvelopes} line(s) are not REPS event envelopes and were ignored`);
    }
    if (this.seqBreaks > 0) {
      warnings.push(
        `the stream's seq numbers are not contiguous (${this.seqBreaks} break(s)): records may be missing`,
      );
    }
    for (const field of this.mixedEnvelope) {
      warnings.push(
        `records disagree on the envelope's "${field}"; the first record's value was used`,
      );
    }
    if (this.failedCalls > 0) {
      warnings.push(`${this.failedCalls} of ${this.llmCalls} model call(s) failed`);
    }
    return warnings;
  }

  private checkEnvelope(envelope: Record<string, unknown>): void {
    const seq = int(envelope.seq);
    if (seq !== null) {
      if (this.lastSeq !== null ? seq !== this.lastSeq + 1 : seq !== 0) this.seqBreaks += 1;
      this.lastSeq = seq;
    }
    const fields: [string, unknown, unknown][] = [
      ['run', this.run, envelope.run],
      ['experiment', this.experiment, envelope.experiment],
      ['schema', this.schema, envelope.schema],
    ];
    if (this.records === 1) {
      this.run = str(envelope.run);
      this.experiment = str(envelope.experiment);
      this.schema = int(envelope.schema);
      this.vocabulary = int(envelope.v);
      return;
    }
    for (const [field, first, current] of fields) {
      if (current !== undefined && current !== first) this.mixedEnvelope.add(field);
    }
  }

  private addCall(event: Record<string, unknown>): void {
    this.llmCalls += 1;
    if (typeof event.error === 'string') this.failedCalls += 1;
    const output = isRecord(event.output) ? event.output : null;
    const served = output ? str(output.model) : null;
    if (served) this.servedModels.add(served);
    const usage = output && isRecord(output.usage) ? output.usage : null;
    if (usage) {
      this.usage.input_tokens +=
        (num(usage.input_tokens) ?? 0) +
        (num(usage.input_tokens_cache_read) ?? 0) +
        (num(usage.input_tokens_cache_write) ?? 0);
      this.usage.output_tokens += num(usage.output_tokens) ?? 0;
    }
    const metadata = isRecord(event.metadata) ? event.metadata : {};
    const sampleId = metadata['inspect.sample_id'];
    if (typeof sampleId !== 'string' && typeof sampleId !== 'number') return;
    const key = exampleId(sampleId, int(metadata['inspect.epoch']));
    const text = outputText(output, noAttachments);
    const agent = str(event.agent);
    let calls = this.calls.get(key);
    if (calls) {
      calls.lastOutput = text;
      if (agent !== null) calls.outputByAgent.set(agent, text);
    } else {
      calls = {
        input: firstUserText(event.input, noAttachments),
        lastOutput: text,
        outputByAgent: new Map(agent !== null ? [[agent, text]] : []),
        steps: [],
        shownByAgent: new Map(),
      };
      this.calls.set(key, calls);
    }
    this.addCallSteps(calls, event, agent ?? served ?? 'model', text);
  }

  private addCallSteps(
    calls: SampleCalls,
    event: Record<string, unknown>,
    who: string,
    text: string,
  ): void {
    // One step over the limit is enough for the transcript to say that steps were left out.
    if (calls.steps.length > TRACE_STEP_LIMIT) return;
    const input = messageSteps(event.input, noAttachments);
    const shown = calls.shownByAgent.get(who) ?? 0;
    const fresh = input.length >= shown ? input.slice(shown) : input;
    calls.shownByAgent.set(who, input.length);
    for (const step of fresh) calls.steps.push({ label: step.label, text: cut(step.text) });
    const error = typeof event.error === 'string' ? `error: ${event.error}` : '';
    calls.steps.push({ label: `${who} · call`, text: cut(text || error) });
  }

  private addCustom(kind: string, data: unknown): void {
    if (!isRecord(data)) return;
    if (kind === 'inspect.sample') {
      const id = data.id;
      if (typeof id !== 'string' && typeof id !== 'number') return;
      this.samples.push({
        id: exampleId(id, int(data.repeat)),
        target: data.target,
        scores: jsonObject(data.scores) ?? {},
        error: str(data.error),
        agent: str(data.agent),
      });
    } else if (kind === 'inspect.metric') {
      const name = str(data.name);
      if (name !== null) this.inspectMetrics[name] = jsonValue(data.value);
    } else if (kind === 'inspect.provenance') {
      this.inspectProvenance = data as JsonObject;
    }
  }
}

function withoutType(event: Record<string, unknown>): JsonObject {
  const { type: _type, ...rest } = event;
  return rest as JsonObject;
}
