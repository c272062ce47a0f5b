import type { Unavailable } from '../../../shared/contract';

/**
 * What the explorer says in place of a text it could not read: the library reads texts from
 * their source file until it has archived them, and that file changed or vanished since.
 */
export const UNAVAILABLE_TEXT: Record<Unavailable, string> = {
  'source-changed': 'Source changed since indexing — re-index the folder to read this text.',
  'source-missing': 'Source file is gone — its texts were not archived yet.',
};

export function UnavailableNote({ reason }: { reason: Unavailable }) {
  return (
    <p className="text-unavailable" data-testid="text-unavailable">
      {UNAVAILABLE_TEXT[reason]}
    </p>
  );
}
