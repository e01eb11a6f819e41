// `npm run screenshots`: pictures of the explorer for the README, desktop and mobile, in docs/.
// Needs a Chromium with Japanese fonts, which the npm Chromium of the tests lacks: Debian's
// `apt-get install -y chromium fonts-noto-cjk` (or CHROMIUM_PATH naming another browser).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import served from '#served';
import { config } from '../functions/chronicle/chronicle.js';
import type { BuiltDataset } from '../functions/chronicle/dataset.js';
import { createNodeHandler } from '../functions/chronicle/handler.js';
import { startServer } from './server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
// The served image carries no records as objects; the first initiative comes from the profile's dataset.
const initiatives = (JSON.parse(readFileSync(`${root}.build/${served.profile}.json`, 'utf8')) as BuiltDataset).initiatives;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  process.stderr.write(
    `${chromium} がありません。apt-get install -y chromium fonts-noto-cjk で入れるか、CHROMIUM_PATH で指定してください\n`,
  );
  process.exit(2);
}

const SHOTS = [
  { file: 'explorer-desktop.png', path: '/?region=JP&from=2024', width: 1280, height: 900, scale: 1 },
  { file: 'explorer-network.png', path: '/?view=network', width: 1280, height: 900, scale: 1 },
  { file: 'explorer-org.png', path: '/?org=Bank%20of%20Japan', width: 1280, height: 900, scale: 1 },
  { file: 'explorer-mobile.png', path: '/?topic=deposit', width: 360, height: 740, scale: 2 },
  { file: 'explorer-mobile-initiative.png', path: `/?initiative=${initiatives?.[0]?.id ?? ''}`, width: 360, height: 740, scale: 2 },
];

const server = await startServer({ handle: createNodeHandler(served), functionPaths: config.path, root, port: 0 });
const browser = await puppeteer.launch({ executablePath: chromium, args: ['--no-sandbox', '--disable-gpu', '--lang=ja'], headless: true });
try {
  await mkdir(`${root}docs/screenshots`, { recursive: true });
  const page = await browser.newPage();
  for (const s of SHOTS) {
    if (s.path.endsWith('initiative=')) continue;
    await page.setViewport({ width: s.width, height: s.height, deviceScaleFactor: s.scale, isMobile: s.width < 600 });
    await page.goto(new URL(s.path, server.url).href, { waitUntil: 'networkidle0' });
    await page.waitForSelector('html[data-ready]');
    await page.screenshot({ path: `${root}docs/screenshots/${s.file}` });
    process.stderr.write(`  docs/screenshots/${s.file}  ${s.path}\n`);
  }
} finally {
  await browser.close();
  await server.close(true);
}
