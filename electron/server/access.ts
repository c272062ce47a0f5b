import fs from 'node:fs';
import { tokenMatches } from './auth';
import { findUser, parseTokenFile, TokenFileError, type Role, type TokenUser } from './token-file';

/** Who a request speaks for, once its token was recognised. */
export interface Session {
  user: string;
  role: Role;
  /** Reviewers, and everyone on a `--read-only` server: no request that changes anything. */
  readOnly: boolean;
}

/** Turns a request's token into a session, or null for no or an unknown token. */
export interface Access {
  identify(token: string | null): Session | null;
  /** Whether requests are logged with their user (a lab server), or not (one local user). */
  readonly logsRequests: boolean;
}

/** The local browser host: one token per launch, whose holder may do everything. */
export function launchTokenAccess(token: string, readOnly = false): Access {
  return {
    logsRequests: false,
    identify: (given) =>
      tokenMatches(token, given)
        ? { user: 'local', role: readOnly ? 'reviewer' : 'editor', readOnly }
        : null,
  };
}

function sessionOf(entry: TokenUser, readOnly: boolean): Session {
  return { user: entry.user, role: entry.role, readOnly: readOnly || entry.role === 'reviewer' };
}

function loadUsers(file: string): TokenUser[] {
  const { users } = parseTokenFile(fs.readFileSync(file, 'utf8'), file);
  if (users.length === 0)
    throw new TokenFileError(
      `${file} holds no token: add a user with \`pairwise serve tokens add USER --role editor --auth ${file}\`.`,
    );
  return users;
}

/**
 * A lab server's users from its token file. The file is read again whenever its size or mtime
 * changes, so `tokens add` and `tokens remove` take effect without a restart (a removed token
 * stops working at its next request). A file that no longer parses keeps the users read
 * before, and `onReloadError` says why; a file that is gone lets nobody in.
 */
export function tokenFileAccess(
  file: string,
  options: { readOnly?: boolean; onReloadError?: (error: Error) => void } = {},
): Access {
  let users = loadUsers(file);
  let stamp = fileStamp(file);
  const current = (): TokenUser[] => {
    const now = fileStamp(file);
    if (now === stamp) return users;
    stamp = now;
    // Removing the file is the quickest way to let nobody in; a file being edited is not.
    if (now === 'missing') {
      users = [];
      options.onReloadError?.(new TokenFileError(`${file} is gone: every token is refused.`));
      return users;
    }
    try {
      users = loadUsers(file);
    } catch (error) {
      options.onReloadError?.(error as Error);
    }
    return users;
  };
  return {
    logsRequests: true,
    identify: (given) => {
      if (!given) return null;
      const entry = findUser(current(), given);
      return entry ? sessionOf(entry, options.readOnly ?? false) : null;
    },
  };
}

function fileStamp(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  } catch {
    return 'missing';
  }
}
