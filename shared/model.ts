/**
 * The common model every importer produces (docs/architecture.md, "The common model"). Importers
 * are pure with respect to the database: they turn bytes into ImportedRun values; the indexer
 * stores them.
 */

import type { Trace } from './trace';

export type SourceFormat =
  'mechlens' | 'reps' | 'inspect' | 'lm-eval' | 'lighteval' | 'promptfoo' | 'jsonl' | 'csv';

export type Role = 'reference' | 'intervention' | 'control' | 'unknown';

export type Expectation = 'increase' | 'decrease' | 'no_effect';

export type Direction = 'higher_is_better' | 'lower_is_better';

export type RunState = 'completed' | 'failed' | 'interrupted' | 'running' | 'unknown';

export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type JsonObject = { [key: string]: JsonValue };

export interface MetricDefinition {
  description?: string | null;
  example_field?: string | null;
  direction?: Direction | null;
  label?: string | null;
  details?: string | null;
  unit?: string | null;
  type?: JsonValue;
  [key: string]: JsonValue | undefined;
}

export interface Reproduces {
  arxiv?: string | null;
  version?: string | null;
  where?: string | null;
  /** metric name → condition name → the paper's number */
  reported?: Record<string, Record<string, number>> | null;
}

export interface ImportedExperiment {
  id: string;
  name: string;
  question: string | null;
  claim: string | null;
  deviations: string[];
  reproduces: Reproduces | null;
}

export interface ImportedCondition {
  name: string;
  role: Role | null;
  series: string | null;
  level: number | null;
  expect: Record<string, Expectation>;
  compareTo: string[];
  /** REPS gives a real identity hash; other formats leave it null and the indexer derives one. */
  identityHash: string | null;
}

/** The settings that comparability checks compare (docs/comparison.md, "Checks"). */
export interface RunSettings {
  model: JsonObject | null;
  dataset: JsonObject | null;
  sae: JsonObject | null;
  intervention: JsonObject | null;
  generation: JsonObject | null;
  config: JsonObject | null;
  params: JsonObject | null;
}

export interface ImportedExample {
  id: string;
  input: string;
  output: string;
  fields: JsonObject;
  target: string | null;
  error: string | null;
}

export interface ImportedRun {
  runId: string;
  format: SourceFormat;
  formatVersion: string | null;
  project: string;
  /** null for plain runs with no experiment linkage: the indexer groups them by project. */
  experiment: ImportedExperiment | null;
  condition: ImportedCondition;
  settings: RunSettings;
  codeCommit: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  state: RunState;
  seed: number | null;
  metrics: JsonObject;
  metricDefinitions: Record<string, MetricDefinition>;
  provenance: JsonObject;
  /** Things a person should know that did not stop the import (e.g. "no run.end: incomplete"). */
  warnings: string[];
  examples: ImportedExample[];
  /** Transcripts by example id, for the formats that record them (Inspect, REPS). */
  traces?: Map<string, Trace>;
}

export function emptySettings(): RunSettings {
  return {
    model: null,
    dataset: null,
    sae: null,
    intervention: null,
    generation: null,
    config: null,
    params: null,
  };
}

/** The condition of a run whose file declares no role, series or expectation: a name only. */
export function namedCondition(name: string): ImportedCondition {
  return {
    name,
    role: null,
    series: null,
    level: null,
    expect: {},
    compareTo: [],
    identityHash: null,
  };
}

/** An experiment its file names but says nothing else of: no question, claim or deviations. */
export function namedExperiment(id: string, name: string): ImportedExperiment {
  return { id, name, question: null, claim: null, deviations: [], reproduces: null };
}
