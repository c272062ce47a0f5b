/** Errors the hosts turn into contract error codes instead of "internal". */
export class NotFoundError extends Error {
  readonly code = 'not_found' as const;
}

export class ConflictError extends Error {
  readonly code = 'conflict' as const;
}

/** Input that passed the contract's schema but still makes no sense (a forged page cursor). */
export class BadRequestError extends Error {
  readonly code = 'bad_request' as const;
}
