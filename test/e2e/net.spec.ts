import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { writeRepsRun } from '../fixtures/reps';
import { serveApp, type ServedApp } from './host';

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp();
});
test.afterEach(async () => {
  await app.stop();
});

const long =
  'hf/google/gemma-2-2b-it steering.feature_id=4521 steering.sae_id=gemma-scope-2b-pt-res-canonical/layer_20/width_16k/canonical';

/** A reference at temperature 0, an intervention and an unassigned run both at 0.7. */
function library(root: string): string {
  const run = (id: string, name: string, role: string, temperature: number, hour: number) =>
    writeMechlensRun(root, {
      id,
      name,
      experiment: { id: 'exp-net', role },
      examples: examples(4),
      extra: {
        generation: { max_new_tokens: 64, temperature },
        started_at: `2026-09-14T0${hour}:00:00Z`,
        finished_at: `2026-09-14T0${hour}:30:00Z`,
      },
    });
  run('run-ref', 'baseline', 'reference', 0, 1);
  run('run-steer', long, 'intervention', 0.7, 2);
  run('run-random', 'steer-random-feature', 'unknown', 0.7, 3);
  return root;
}

async function addFolder(page: Page, folder: string) {
  await page.getByLabel('Folder path').fill(folder);
  await page.getByRole('button', { name: 'Add folder' }).click();
}

const column = (page: Page, role: string) => page.locator(`.role-column[data-role="${role}"]`);

test('group runs: preview, cancel, confirm with roles kept, undo after a reload; role menu; series', async ({
  page,
}) => {
  await page.goto(app.url);
  await addFolder(page, library(path.join(app.dataDir, 'lib')));
  await page.locator('.experiment-name').first().click({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Conditions', exact: true }).click();

  await page.getByLabel('Role of steer-random-feature').selectOption('control');
  await expect(column(page, 'control')).toContainText('steer-random-feature');

  await page.getByLabel('Settings field').selectOption('generation.temperature');
  await page.getByRole('button', { name: 'Group…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Group runs by generation.temperature?' });
  await expect(dialog).toContainText('3 of 3 runs move');
  await expect(dialog.getByRole('table')).toContainText('generation.temperature=0.7 (control)');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(column(page, 'intervention')).toContainText(long);

  await page.getByRole('button', { name: 'Group…' }).click();
  await dialog.getByRole('button', { name: 'Group 3 runs' }).click();
  await expect(column(page, 'reference')).toContainText('generation.temperature=0');
  await expect(column(page, 'intervention')).toContainText(
    'generation.temperature=0.7 (intervention)',
  );
  await expect(column(page, 'control')).toContainText('generation.temperature=0.7 (control)');
  await expect(page.locator('.role-columns')).not.toContainText('superseded');

  // The address keeps the view and experiment: a reload comes back to these conditions.
  await page.reload();
  await page.getByRole('button', { name: 'Undo grouping' }).click({ timeout: 30_000 });
  await expect(column(page, 'intervention')).toContainText(long);
  await expect(column(page, 'control')).toContainText('steer-random-feature');
  await expect(page.getByRole('button', { name: 'Undo grouping' })).toBeHidden();

  await page.getByLabel('Role of run run-steer').selectOption('control');
  await expect(column(page, 'control')).toContainText(long);
  await page.getByLabel('Role of run run-steer').selectOption('');
  await expect(column(page, 'intervention')).toContainText(long);

  const card = page.locator('.condition-card').filter({ hasText: long });
  await card.getByRole('button', { name: 'Set series…' }).click();
  await card.getByLabel(`Series of ${long}`).fill('steering strength');
  await card.getByLabel(`Level of ${long}`).fill('4');
  await card.getByRole('button', { name: 'Save series' }).click();
  await expect(card).toContainText('steering strength = 4');
});

test('Remove folder asks first and keeps the runs another watched folder provides', async ({
  page,
}) => {
  const outer = library(path.join(app.dataDir, 'lib'));
  const inner = path.join(outer, '.mechlens');
  await page.goto(app.url);
  await addFolder(page, inner);
  await expect(page.locator('.folder-chip')).toHaveCount(1, { timeout: 30_000 });
  await addFolder(page, outer);
  await expect(page.locator('.folder-chip')).toHaveCount(2);

  const chip = page.locator('.folder-chip').filter({ hasText: inner });
  await chip.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this folder?' });
  await expect(dialog).toContainText(`3 runs stay: ${outer} also provides their files.`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.folder-chip')).toHaveCount(2);

  await chip.getByRole('button', { name: 'Remove' }).click();
  await dialog.getByRole('button', { name: 'Remove folder and 0 runs' }).click();
  await expect(page.locator('.folder-chip')).toHaveCount(1);
  await expect(page.getByText('3 runs ·').first()).toBeVisible();
});

test('dropping two REPS run folders keeps both runs (their run.json files do not collide)', async ({
  page,
}) => {
  const made = path.join(app.dataDir, 'made');
  const units = ['20260916t120000z-3fa9c2d41b7e', '20260916t130000z-4ab0d3e52c8f'].map((runId) =>
    writeRepsRun({
      dataDir: made,
      runId,
      samples: [{ id: 1, input: 'Say hi', output: `hi from ${runId}`, scores: { match: 1 } }],
    }),
  );
  const folders = units.map((unit) => ({
    name: path.basename(unit.path),
    files: fs
      .readdirSync(unit.path, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => {
        const full = path.join(d.parentPath, d.name);
        return { rel: path.relative(unit.path, full), text: fs.readFileSync(full, 'utf8') };
      }),
  }));
  await page.goto(app.url);
  await expect(page.locator('.drop-zone')).toBeVisible();
  await page.evaluate((dropped) => {
    type Entry = Record<string, unknown>;
    const fileEntry = (fullPath: string, text: string): Entry => {
      const name = fullPath.split('/').pop()!;
      return {
        isFile: true,
        isDirectory: false,
        name,
        fullPath,
        file: (ok: (f: File) => void) => ok(new File([text], name)),
      };
    };
    const dirEntry = (fullPath: string, children: Entry[]): Entry => ({
      isFile: false,
      isDirectory: true,
      name: fullPath.split('/').pop()!,
      fullPath,
      createReader: () => {
        let done = false;
        return {
          readEntries: (ok: (e: Entry[]) => void) => {
            const batch = done ? [] : children;
            done = true;
            setTimeout(() => ok(batch));
          },
        };
      },
    });
    const tree = (root: string, files: { rel: string; text: string }[]): Entry => {
      const dirs = new Map<string, Entry[]>();
      const top: Entry[] = [];
      for (const f of files) {
        const parts = f.rel.split('/');
        if (parts.length === 1) top.push(fileEntry(`/${root}/${f.rel}`, f.text));
        else {
          const list = dirs.get(parts[0]!) ?? [];
          list.push(fileEntry(`/${root}/${f.rel}`, f.text));
          dirs.set(parts[0]!, list);
        }
      }
      for (const [d, list] of dirs) top.push(dirEntry(`/${root}/${d}`, list));
      return dirEntry(`/${root}`, top);
    };
    const entries = dropped.map((d) => tree(d.name, d.files));
    const transfer = new DataTransfer();
    // A page cannot make directory entries; the drop event hands its DataTransfer out anew, so
    // the fake items sit on the prototype.
    Object.defineProperty(DataTransfer.prototype, 'items', {
      configurable: true,
      get: () => entries.map((entry) => ({ kind: 'file', webkitGetAsEntry: () => entry })),
    });
    const target = document.querySelector('.drop-zone')!;
    target.dispatchEvent(
      new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }),
    );
  }, folders);
  await expect(page.getByRole('status').getByText('2 runs · 2 examples')).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.locator('.folder-chip')).toHaveCount(1);
});

test('a path typed into the empty library survives runs arriving meanwhile', async ({ page }) => {
  await page.goto(app.url);
  await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible();
  const folder = library(path.join(app.dataDir, 'typed'));
  await page.getByLabel('Folder path').fill(folder);
  // Runs arrive while the path waits to be submitted: the empty state gives way to the library.
  await page.getByRole('button', { name: 'Open the sample experiment' }).click();
  await expect(page.getByRole('heading', { name: 'Library', exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByLabel('Folder path')).toHaveValue(folder);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByText('exp-net').first()).toBeVisible({ timeout: 30_000 });
});
