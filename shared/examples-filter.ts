import { z } from 'zod';

/*
 * The examples explorer's filter, read by the contract's requests and by the app's address: a
 * module of its own, so that reading the address builds these schemas and not the contract's.
 */

export const changeClassSchema = z.enum([
  'improved',
  'regressed',
  'unchanged',
  'changed',
  'not_comparable',
]);

export const examplesFilterSchema = z
  .object({
    criterion: z.string().max(1000).optional(),
    changeClass: changeClassSchema.optional(),
    outputChanged: z.boolean().optional(),
    behaviorChanged: z.boolean().optional(),
    side: z.enum(['both', 'reference', 'candidate']).optional(),
    inputMismatch: z.boolean().optional(),
    search: z.string().max(500).optional(),
  })
  .strict();
