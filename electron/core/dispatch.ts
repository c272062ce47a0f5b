import {
  describeZodError,
  isRequestName,
  requests,
  type ContractError,
  type Result,
} from '../../shared/contract';
import { describeDbError } from './db/errors';
import { BadRequestError, ConflictError, NotFoundError } from './errors';
import type { PairwiseService } from './service';

function toError(error: unknown, dbFile: string): ContractError {
  if (error instanceof NotFoundError) return { code: 'not_found', message: error.message };
  if (error instanceof ConflictError) return { code: 'conflict', message: error.message };
  if (error instanceof BadRequestError) return { code: 'bad_request', message: error.message };
  // A busy, full or read-only library is said in words a person can act on, as jobs say it.
  const message =
    describeDbError(error, dbFile) ?? (error instanceof Error ? error.message : String(error));
  return { code: 'internal', message };
}

/**
 * The one entry point both hosts use: validate the name and the input against the contract,
 * call the service, and shape the answer as a Result. Nothing unvalidated reaches the service.
 */
export async function dispatch(
  service: PairwiseService,
  name: unknown,
  input: unknown,
): Promise<Result<unknown>> {
  if (!isRequestName(name)) {
    return {
      ok: false,
      error: { code: 'unknown_request', message: `Unknown request "${String(name)}".` },
    };
  }
  const parsed = requests[name].input.safeParse(input ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      error: {
        code: 'bad_request',
        message: `Invalid input for ${name}: ${describeZodError(parsed.error)}`,
      },
    };
  }
  try {
    const handler = service.handlers[name] as (input: unknown) => unknown;
    return { ok: true, value: await handler(parsed.data) };
  } catch (error) {
    return { ok: false, error: toError(error, service.db.name) };
  }
}
