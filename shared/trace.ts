import { z } from 'zod';

/**
 * A sample's transcript as the example detail shows it: sections (an Inspect sample's messages,
 * its events; a REPS sample's model calls) of steps, each a label and plain text. Kept beside
 * the example (table example_traces), never parsed as markup.
 */
export const traceStepSchema = z.object({
  /** Who or what: a message role (`user`, `assistant`, `tool · search`) or an event. */
  label: z.string(),
  text: z.string(),
});
export type TraceStep = z.infer<typeof traceStepSchema>;

export const traceSchema = z.array(
  z.object({ title: z.string(), steps: z.array(traceStepSchema) }),
);
export type Trace = z.infer<typeof traceSchema>;
