import type { Browser, Page } from '@playwright/test';
import type { Job } from '../../shared/jobs';

/**
 * What makes a screenshot come out the same on every run: one instant for the core's clock
 * (`serveApp(…, { fixedClock })`) and the page's, a fixed locale and time zone, no transitions,
 * no caret, no pointer hovering a control, no toast, fonts loaded, and no job still running.
 */
export const FIXED_CLOCK = '2026-09-15T10:30:00.000Z';

export interface Screen {
  width: number;
  height: number;
  scheme: 'light' | 'dark';
}

/**
 * Raster flags for screenshots: without them Chromium's threaded, partial raster may shade the
 * antialiased edge of a rounded corner one level differently from one run to the next.
 */
export const stableRasterArgs = [
  '--force-color-profile=srgb',
  '--disable-partial-raster',
  '--disable-skia-runtime-opts',
  '--num-raster-threads=1',
];

/** A page in its own context, with the page's clock installed at FIXED_CLOCK. */
export async function stablePage(browser: Browser, screen: Screen): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: screen.width, height: screen.height },
    colorScheme: screen.scheme,
    locale: 'en-US',
    timezoneId: 'UTC',
    reducedMotion: 'reduce',
  });
  await context.clock.install({ time: new Date(FIXED_CLOCK) });
  return context.newPage();
}

/** Calls one request of the contract as the page would, with the token from the app's address. */
export async function callApi<T>(appUrl: string, name: string, input: unknown): Promise<T> {
  const { origin, searchParams } = new URL(appUrl);
  const response = await fetch(`${origin}/api/request`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${searchParams.get('token')}`,
    },
    body: JSON.stringify({ name, input }),
  });
  const answer = (await response.json()) as { ok: boolean; value: T; error?: unknown };
  if (!answer.ok) throw new Error(`${name}: ${JSON.stringify(answer.error)}`);
  return answer.value;
}

/**
 * Waits until the core runs no job. A job that finishes while a page is open shows a toast at a
 * moment that depends on the machine's speed, so the sample library is indexed before the page
 * opens.
 */
export async function jobsIdle(appUrl: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const jobs = await callApi<Job[]>(appUrl, 'jobs:list', {});
    if (jobs.every((job) => job.state !== 'running')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the core still runs a job after a minute');
}

/** Takes the page to a state that does not depend on timing, then photographs it. */
export async function stableScreenshot(page: Page, file?: string): Promise<Buffer> {
  const toasts = page.locator('.toasts').getByRole('button', { name: 'Dismiss' });
  while ((await toasts.count()) > 0) await toasts.first().click();
  await page.mouse.move(0, 0);
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
  return page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
}
