import type { RequestName } from '../../shared/contract';

/**
 * What each contract request does to the library, for read-only sessions (reviewers, and
 * every user of a `--read-only` server). Listing every request makes the compiler ask for a
 * decision whenever the contract grows, so a new request is never allowed by oversight.
 */
type Effect = 'reads' | 'changes';

export const requestEffects = {
  'app:info': 'reads',
  'library:summary': 'reads',
  'library:problems': 'reads',
  'library:addFolder': 'changes',
  'library:removeFolder': 'changes',
  'library:openSample': 'changes',
  'runs:list': 'reads',
  'experiments:list': 'reads',
  'conditions:list': 'reads',
  'conditions:setRole': 'changes',
  'conditions:setRepresentative': 'changes',
  'runs:setOverride': 'changes',
  // A comparison is stored in the library and costs the server minutes of CPU.
  'compare:start': 'changes',
  'compare:report': 'reads',
  'examples:page': 'reads',
  'examples:count': 'reads',
  'examples:detail': 'reads',
  'runs:groupBy': 'changes',
  'runs:groupPreview': 'reads',
  'runs:groupUndo': 'changes',
  'runs:lastGrouping': 'reads',
  'conditions:setSeries': 'changes',
  'examples:trace': 'reads',
  'library:folderRemoval': 'reads',
  'settings:fields': 'reads',
  'export:examplesCsv': 'reads',
  'export:summaryCsv': 'reads',
  'findings:list': 'reads',
  'findings:create': 'changes',
  'findings:get': 'reads',
  'findings:save': 'changes',
  'findings:revisions': 'reads',
  'findings:restore': 'changes',
  'findings:staleness': 'reads',
  'findings:refresh': 'changes',
  'findings:export': 'reads',
  'findings:pin': 'changes',
  'sync:status': 'reads',
  // Sets where this library sends its runs, and the key it sends them with.
  'sync:configure': 'changes',
  // Even a dry run queues nothing, but the job it starts otherwise sends the library away.
  'sync:run': 'changes',
  'sync:retryNow': 'changes',
  'jobs:list': 'reads',
  // Cancelling someone else's index or comparison loses their work.
  'jobs:cancel': 'changes',
} as const satisfies Record<RequestName, Effect>;

/** Unknown names are left to the dispatcher, which refuses them. */
export function changesLibrary(name: unknown): boolean {
  return (
    typeof name === 'string' &&
    Object.hasOwn(requestEffects, name) &&
    requestEffects[name as RequestName] === 'changes'
  );
}

export const READ_ONLY_MESSAGE = 'read-only: ask an editor';
