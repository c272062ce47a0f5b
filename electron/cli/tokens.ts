import { parseArgs } from 'node:util';
import {
  addUser,
  readUserFile,
  removeUser,
  roles,
  TokenFileError,
  type Role,
} from '../server/token-file';
import { InputError, UsageError, type Io } from './commands';

/**
 * `pairwise serve tokens add USER --role R --auth FILE` (prints the new token, once),
 * `… remove USER --auth FILE` and `… list --auth FILE`. A running server reads the file again
 * at its next request.
 */
export async function tokensCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { auth: { type: 'string' }, role: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const [action, user, ...extra] = positionals;
  const file = values.auth;
  if (!file) throw new UsageError('serve tokens needs --auth FILE.');
  if (extra.length > 0) throw new UsageError(`Unexpected ${extra.join(' ')}.`);
  try {
    if (action === 'list' && !user) {
      for (const entry of readUserFile(file)) io.out(`${entry.user}\t${entry.role}`);
      return 0;
    }
    if (action === 'add' && user) {
      const role = values.role ?? '';
      if (!(roles as readonly string[]).includes(role))
        throw new UsageError('serve tokens add needs --role reviewer or --role editor.');
      const token = addUser(file, user, role as Role);
      io.err(`Added ${user} (${role}) to ${file}. Their token, shown this once:`);
      io.out(token);
      return 0;
    }
    if (action === 'remove' && user) {
      if (!removeUser(file, user)) throw new InputError(`${file} has no user "${user}".`);
      io.out(`Removed ${user}; their token stops working at its next request.`);
      return 0;
    }
  } catch (error) {
    if (error instanceof TokenFileError) throw new InputError(error.message);
    throw error;
  }
  throw new UsageError(
    'Use: serve tokens add USER --role R | remove USER | list, with --auth FILE.',
  );
}
