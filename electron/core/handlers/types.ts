import type { ParsedInput, RequestName, RequestOutput } from '../../../shared/contract';

/** The contract's requests, each answered by one function of the core. */
export type Handlers = {
  [N in RequestName]: (input: ParsedInput<N>) => Promise<RequestOutput<N>> | RequestOutput<N>;
};

/** The handlers of the requests whose names start with one of `prefixes`. */
export type HandlersOf<P extends string> = {
  [N in Extract<RequestName, `${P}:${string}`>]: Handlers[N];
};
