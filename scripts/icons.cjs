#!/usr/bin/env node
/**
 * `npm run icons`: renders resources/icon.svg into the PNGs electron-builder packages —
 * resources/icons/NxN.png from 16 to 1024 (the Linux icon set; macOS and Windows point at the
 * 1024 one and electron-builder makes the .icns/.ico from it) plus icon.png at 512. The PNGs are
 * committed so packaging needs no rasterizer; rerun this after editing the SVG.
 *
 * Usage: node scripts/icons.cjs [outDir]
 */
const fs = require('node:fs');
const path = require('node:path');
const { Resvg } = require('@resvg/resvg-js');

const root = path.resolve(__dirname, '..');
const sizes = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

const outDir = path.resolve(process.argv[2] ?? path.join(root, 'resources', 'icons'));
const svg = fs.readFileSync(path.join(root, 'resources', 'icon.svg'));

fs.mkdirSync(outDir, { recursive: true });
for (const size of sizes) {
  // Each size is rendered from the vector rather than scaled down from 1024, so 16 px stays crisp.
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
  fs.writeFileSync(path.join(outDir, `${size}x${size}.png`), png);
}
fs.copyFileSync(path.join(outDir, '512x512.png'), path.join(outDir, 'icon.png'));
process.stdout.write(`Pairwise: icons written to ${path.relative(root, outDir) || '.'}\n`);
