import { describe, expect, it } from 'vitest';
import { importMechlens } from '../../../electron/core/ingest/importers/mechlens';
import { checkImportedRuns } from '../../../electron/core/ingest/limits';
import { isCredentialName, redactRun, redactText } from '../../../electron/core/ingest/redact';
import { mechlensRecord } from '../../fixtures/formats';

describe('which names hold credentials', () => {
  it.each([
    'apiKey',
    'api_key',
    'apikey',
    'API-KEY',
    'X-Api-Key',
    'OPENAI_API_KEY',
    'private_key',
    'token',
    'access_token',
    'HF_TOKEN',
    'authToken',
    'auth',
    'Authorization',
    'Cookie',
    'password',
    'passwd',
    'secret',
    'client_secret',
    'AWS_SECRET_ACCESS_KEY',
    'key',
  ])('%s is a credential', (name) => {
    expect(isCredentialName(name)).toBe(true);
  });

  it.each([
    'max_tokens',
    'max_new_tokens',
    'token_count',
    'tokens',
    'tokenizer',
    'tokenizer_name',
    'keyword',
    'keywords',
    'monkey',
    'pad_token',
    'eos_token',
    'add_bos_token',
    'pad_token_id',
    'sort_key',
    'metric_key',
    'keys_seen',
    'author',
    'authors',
    'secretary',
    'use_auth_token_count',
    'temperature',
  ])('%s is not a credential', (name) => {
    expect(isCredentialName(name)).toBe(false);
  });
});

describe('credentials inside texts', () => {
  it('redacts the secret part of URLs and name=value pairs, nothing else', () => {
    expect(redactText('https://alice:hunter2@example.com/v1')).toBe(
      'https://alice:[redacted]@example.com/v1',
    );
    expect(redactText('https://ghp_abc123def456@github.com/x/y.git')).toBe(
      'https://[redacted]@github.com/x/y.git',
    );
    expect(redactText('ssh://git@github.com/x/y.git')).toBe('ssh://git@github.com/x/y.git');
    expect(redactText('https://api.example.com/v1?api_key=sk-123&limit=5')).toBe(
      'https://api.example.com/v1?api_key=[redacted]&limit=5',
    );
    expect(redactText('model=gpt-4,api_key=sk-123,max_tokens=100')).toBe(
      'model=gpt-4,api_key=[redacted],max_tokens=100',
    );
    expect(redactText('Bearer eyJhbGciOi.J9x1')).toBe('Bearer [redacted]');
    expect(redactText('Basic understanding of chemistry.')).toBe(
      'Basic understanding of chemistry.',
    );
    expect(redactText('mail me at someone@example.com')).toBe('mail me at someone@example.com');
  });
});

describe('redactRun', () => {
  it('replaces credentials in settings, provenance and metric definitions at any depth, with a warning', () => {
    const run = importMechlens(
      mechlensRecord({
        extra: {
          config: {
            seed: 7,
            apiKey: 'sk-planted',
            max_tokens: 64,
            use_auth_token: true,
            provider: { headers: { Authorization: 'Bearer sk-planted', Accept: 'json' } },
          },
        },
      }),
      { path: '/lib/.mechlens/runs/x.json', mtimeMs: 0 },
    );
    run.provenance = { remote: 'https://user:sk-planted@host/repo.git', env: { HF_TOKEN: 'x' } };
    checkImportedRuns([run]);
    expect(JSON.stringify(run)).not.toContain('sk-planted');
    expect(run.settings.config).toEqual({
      seed: 7,
      apiKey: '[redacted]',
      max_tokens: 64,
      use_auth_token: true,
      provider: { headers: { Authorization: '[redacted]', Accept: 'json' } },
    });
    expect(run.provenance).toEqual({
      remote: 'https://user:[redacted]@host/repo.git',
      env: { HF_TOKEN: '[redacted]' },
    });
    expect(run.warnings).toContain(
      '4 credential-like settings redacted: config.apiKey, config.provider.headers.Authorization, ' +
        'provenance.remote, provenance.env.HF_TOKEN',
    );
  });

  it('leaves a run without credentials exactly as it was', () => {
    const run = importMechlens(mechlensRecord(), { path: '/x/.mechlens/runs/r.json', mtimeMs: 0 });
    const before = JSON.stringify(run);
    redactRun(run);
    expect(JSON.stringify(run)).toBe(before);
  });
});
