import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkServeOptions, parsePublicUrl } from '../../../electron/cli/serve';
import { UsageError } from '../../../electron/cli/commands';
import {
  addUser,
  findUser,
  hashToken,
  parseTokenFile,
  readUserFile,
  removeUser,
  SHARED_USER,
  TokenFileError,
} from '../../../electron/server/token-file';
import { tempDir } from '../../fixtures/tmp';

let cleanup = () => undefined as void;
afterEach(() => cleanup());

function scratch(): string {
  const t = tempDir();
  cleanup = t.cleanup;
  return t.dir;
}

const line = (user: string, role: string, token: string) =>
  `${user} ${role} sha256:${hashToken(token).toString('hex')}`;

describe('token file', () => {
  it('reads one shared token as an editor, and per-user lines with their roles', () => {
    const shared = parseTokenFile('\n  pw_abcdefghijklmnopqrstuvwxyz0123456789  \n');
    expect(shared.shared).toBe(true);
    expect(shared.users.map((u) => [u.user, u.role])).toEqual([[SHARED_USER, 'editor']]);
    expect(findUser(shared.users, 'pw_abcdefghijklmnopqrstuvwxyz0123456789')?.user).toBe(
      SHARED_USER,
    );

    const file = parseTokenFile(
      ['# lab users', line('alice', 'editor', 'token-a'), line('bob', 'reviewer', 'token-b')].join(
        '\n',
      ),
    );
    expect(file.shared).toBe(false);
    expect(findUser(file.users, 'token-a')).toMatchObject({ user: 'alice', role: 'editor' });
    expect(findUser(file.users, 'token-b')).toMatchObject({ user: 'bob', role: 'reviewer' });
    expect(findUser(file.users, 'token-c')).toBeNull();
    expect(findUser(file.users, '')).toBeNull();
  });

  it('refuses what it cannot trust, naming the line', () => {
    const bad = [
      ['short-token', /at least 24/],
      [line('alice', 'admin', 't'), /role must be reviewer or editor/],
      ['alice editor deadbeef', /sha256:<64 hex digits>/],
      [`${line('alice', 'editor', 'a')}\n${line('alice', 'reviewer', 'b')}`, /appears twice/],
      [`${line('alice', 'editor', 'a')}\nbob reviewer`, /line 2/],
      [line('al ice', 'editor', 'a'), /expected "user role sha256/],
    ] as const;
    for (const [text, message] of bad) expect(() => parseTokenFile(text), text).toThrow(message);
  });

  it('adds a user with a token shown once, stores only its hash, and removes users', () => {
    const file = path.join(scratch(), 'tokens');
    const token = addUser(file, 'alice', 'editor');
    expect(token).toMatch(/^pw_[\w-]{43}$/);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(token);
    expect(text).toContain(`alice editor sha256:${hashToken(token).toString('hex')}`);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const bobs = addUser(file, 'bob', 'reviewer');
    expect(findUser(readUserFile(file), bobs)?.role).toBe('reviewer');
    expect(() => addUser(file, 'bob', 'editor')).toThrow(/already has a token/);
    expect(() => addUser(file, '../etc', 'editor')).toThrow(TokenFileError);
    expect(removeUser(file, 'bob')).toBe(true);
    expect(removeUser(file, 'bob')).toBe(false);
    expect(findUser(readUserFile(file), bobs)).toBeNull();
    expect(findUser(readUserFile(file), token)?.user).toBe('alice');

    const shared = path.join(scratch(), 'shared');
    fs.writeFileSync(shared, 'pw_abcdefghijklmnopqrstuvwxyz0123456789\n');
    expect(() => addUser(shared, 'carol', 'editor')).toThrow(/one shared token/);
  });
});

describe('serve options', () => {
  it('refuses a non-loopback address without --auth, or without --public-url', () => {
    expect(() => checkServeOptions({ host: '0.0.0.0' })).toThrow(/without --auth/);
    expect(() => checkServeOptions({ host: '192.168.1.20', auth: 'tokens' })).toThrow(
      /needs --public-url/,
    );
    expect(() => checkServeOptions({ host: '::', auth: 'tokens' })).toThrow(UsageError);
    expect(
      checkServeOptions({ host: '0.0.0.0', auth: 't', publicUrl: 'https://pairwise.lab.example' }),
    ).toMatchObject({ bind: '0.0.0.0', port: 8080 });
    expect(checkServeOptions({})).toMatchObject({ bind: '127.0.0.1', port: 0 });
    expect(checkServeOptions({ host: 'localhost', port: '4100' }).port).toBe(4100);
    expect(() => checkServeOptions({ trustProxy: true })).toThrow(/needs --public-url/);
  });

  it('takes a public URL that is an origin alone', () => {
    expect(parsePublicUrl('https://pairwise.lab.example').host).toBe('pairwise.lab.example');
    expect(parsePublicUrl('https://lab.example:8443/').host).toBe('lab.example:8443');
    for (const bad of [
      'pairwise.lab.example',
      'ftp://lab.example',
      'https://lab.example/pairwise',
      'https://user:pw@lab.example',
      'https://lab.example/?x=1',
    ])
      expect(() => parsePublicUrl(bad), bad).toThrow(UsageError);
  });
});
