import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './helpers.js';

// Netlify's local emulation (@netlify/dev) is two thirds of a full install, and one test uses it.
// It is kept out of the project's dependencies and installed here on first use, at the version
// pinned in test/netlify-dev/package-lock.json, so `npm ci` stays lean for curators.

export interface NetlifyDevLike {
  start(): Promise<unknown>;
  handle(req: Request): Promise<Response | undefined>;
  stop(): Promise<unknown>;
}
type NetlifyDevClass = new (options: Record<string, unknown>) => NetlifyDevLike;

const PINNED = join(ROOT, 'test', 'netlify-dev');
const PREFIX = join(ROOT, 'node_modules', '.cache', 'chronicle-netlify-dev');

export async function loadNetlifyDev(): Promise<NetlifyDevClass> {
  const entry = join(PREFIX, 'node_modules', '@netlify', 'dev', 'dist', 'main.js');
  if (!existsSync(entry)) {
    await mkdir(PREFIX, { recursive: true });
    for (const f of ['package.json', 'package-lock.json']) await copyFile(join(PINNED, f), join(PREFIX, f));
    process.stderr.write('Installing @netlify/dev for the Netlify parity test (once per install, about 40 s)…\n');
    const r = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: PREFIX,
      encoding: 'utf8',
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    if (r.status !== 0) throw new Error(`could not install @netlify/dev into ${PREFIX}:\n${r.stderr}`);
  }
  return ((await import(pathToFileURL(entry).href)) as { NetlifyDev: NetlifyDevClass }).NetlifyDev;
}

export type ZipFunction = (
  srcPath: string,
  destFolder: string,
  options: Record<string, unknown>,
) => Promise<{ path: string; includedFiles?: string[] } | undefined>;

/**
 * Netlify's function packager (@netlify/zip-it-and-ship-it, the version @netlify/dev pins): what
 * a deploy runs to lay the function and its included files out in the archive it uploads.
 */
export async function loadZipFunction(): Promise<ZipFunction> {
  await loadNetlifyDev();
  const entry = join(PREFIX, 'node_modules', '@netlify', 'zip-it-and-ship-it', 'dist', 'main.js');
  return ((await import(pathToFileURL(entry).href)) as { zipFunction: ZipFunction }).zipFunction;
}
