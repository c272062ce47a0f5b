import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../shared/csp';

describe('content security policy', () => {
  it('allows no inline script and no remote origin', () => {
    expect(contentSecurityPolicy).toMatch(/script-src 'self'(;|$)/);
    expect(contentSecurityPolicy).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
  });

  it('the renderer page carries the same policy in its meta tag (for file:// loads)', () => {
    const html = fs.readFileSync(path.resolve(__dirname, '../../renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    const withoutFraming = contentSecurityPolicy.replace("; frame-ancestors 'none'", '');
    expect(meta).toBe(withoutFraming);
  });
});
