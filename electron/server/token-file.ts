import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The lab server's token file (docs/lab-server.md): either one shared token on its own line,
 * or one line per user, `user role sha256:<hex>`. Only a hash of each user's token is stored.
 *
 * SHA-256 rather than scrypt: every token is 32 random bytes made by `newLabToken`, so guessing
 * one from its hash means searching 2^256 values, which no work factor would make harder; a
 * slow hash only defends low-entropy secrets (passwords) and would cost every API request
 * tens of milliseconds of CPU.
 */

export const roles = ['reviewer', 'editor'] as const;
export type Role = (typeof roles)[number];

export interface TokenUser {
  user: string;
  role: Role;
  /** SHA-256 of the token, 32 bytes. */
  hash: Buffer;
}

export class TokenFileError extends Error {}

const USER = /^[A-Za-z0-9][\w.@-]{0,63}$/;
const HASHED = /^sha256:([0-9a-f]{64})$/;
/** A shared token shorter than this is too easy to guess for a server on a network. */
const MIN_SHARED_TOKEN = 24;

/** The user a one-token file stands for. */
export const SHARED_USER = 'shared';

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export function newLabToken(): string {
  return `pw_${randomBytes(32).toString('base64url')}`;
}

function parseLine(line: string, number: number, file: string): TokenUser {
  const fields = line.split(/\s+/);
  const where = `${file}, line ${number}`;
  if (fields.length !== 3)
    throw new TokenFileError(`${where}: expected "user role sha256:<hex>" (or one token alone).`);
  const [user, role, hash] = fields as [string, string, string];
  if (!USER.test(user))
    throw new TokenFileError(`${where}: "${user}" is not a user name (letters, digits, ._@-).`);
  if (!(roles as readonly string[]).includes(role))
    throw new TokenFileError(`${where}: the role must be reviewer or editor, not "${role}".`);
  const hex = HASHED.exec(hash)?.[1];
  if (!hex) throw new TokenFileError(`${where}: the token hash must be sha256:<64 hex digits>.`);
  return { user, role: role as Role, hash: Buffer.from(hex, 'hex') };
}

export interface TokenFile {
  /** A file holding one token alone, which every holder shares. */
  shared: boolean;
  users: TokenUser[];
}

/** The users a token file's text names; `#` starts a comment line. */
export function parseTokenFile(text: string, file = 'the token file'): TokenFile {
  const lines = text
    .split(/\r?\n/)
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'));
  const [first] = lines;
  if (lines.length === 1 && !/\s/.test(first!.line)) {
    if (first!.line.length < MIN_SHARED_TOKEN)
      throw new TokenFileError(
        `${file}: a shared token must be at least ${MIN_SHARED_TOKEN} characters; make one with \`pairwise serve tokens add\`.`,
      );
    return {
      shared: true,
      users: [{ user: SHARED_USER, role: 'editor', hash: hashToken(first!.line) }],
    };
  }
  const users = lines.map(({ line, number }) => parseLine(line, number, file));
  const seen = new Set<string>();
  for (const { user } of users) {
    if (seen.has(user)) throw new TokenFileError(`${file}: the user "${user}" appears twice.`);
    seen.add(user);
  }
  return { shared: false, users };
}

/**
 * The user whose token this is. Every entry is compared, in constant time, whatever matches:
 * the time taken says nothing about which hash, or how much of it, was close.
 */
export function findUser(users: readonly TokenUser[], token: string): TokenUser | null {
  const given = hashToken(token);
  let found: TokenUser | null = null;
  for (const entry of users) {
    if (timingSafeEqual(entry.hash, given) && !found) found = entry;
  }
  return found;
}

export function formatUserLine(entry: TokenUser): string {
  return `${entry.user} ${entry.role} sha256:${entry.hash.toString('hex')}`;
}

/** Replaces the file in one rename, readable by its owner only. */
export function writeTokenFile(file: string, users: readonly TokenUser[]): void {
  const text = `# Pairwise lab server users: user role sha256(token). Tokens are never stored.\n${users.map(formatUserLine).join('\n')}\n`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temp, text, { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** A per-user file's users; an absent file is an empty list, a one-token file is refused. */
export function readUserFile(file: string): TokenUser[] {
  if (!fs.existsSync(file)) return [];
  const parsed = parseTokenFile(fs.readFileSync(file, 'utf8'), file);
  if (parsed.shared)
    throw new TokenFileError(
      `${file} holds one shared token, not per-user lines: move it aside to manage users.`,
    );
  return parsed.users;
}

/** Adds a user with a new token and returns the token, which is shown once and kept nowhere. */
export function addUser(file: string, user: string, role: Role): string {
  if (!USER.test(user))
    throw new TokenFileError(`"${user}" is not a user name (letters, digits, ._@-).`);
  const users = readUserFile(file);
  if (users.some((u) => u.user === user))
    throw new TokenFileError(
      `${user} already has a token: remove it first (\`pairwise serve tokens remove ${user}\`).`,
    );
  const token = newLabToken();
  writeTokenFile(file, [...users, { user, role, hash: hashToken(token) }]);
  return token;
}

export function removeUser(file: string, user: string): boolean {
  const users = readUserFile(file);
  const kept = users.filter((u) => u.user !== user);
  if (kept.length === users.length) return false;
  writeTokenFile(file, kept);
  return true;
}
