import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the app icon', () => {
  it('the renderer serves the same icon the installers are made from', () => {
    const root = path.resolve(__dirname, '../..');
    expect(fs.readFileSync(path.join(root, 'renderer/public/icon.svg'), 'utf8')).toBe(
      fs.readFileSync(path.join(root, 'resources/icon.svg'), 'utf8'),
    );
  });
});
