/**
 * The one Content-Security-Policy both hosts send with the renderer: only our own scripts and
 * styles, no inline script, no remote origin, no framing. Run data is never markup, so nothing
 * here needs loosening for it.
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
