import fs from 'node:fs';

/** Debian's Chromium where it is installed (Playwright cannot download its own here). */
export const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) =>
  fs.existsSync(p),
);

/** Flags that keep Chromium quiet on a machine with no route to Google's services. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
