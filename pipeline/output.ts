import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BuiltDataset, Profile } from '../functions/chronicle/dataset.js';
import { buildImage, type ImageHeader } from '../functions/chronicle/image.js';
import { PROFILES } from './profiles.js';
import { forceLayout } from '../site/layout.js';
import { bundleExplorer } from './explorer.js';
import type { ChangeLog } from './changes.js';
import { discoveryFiles } from './discovery.js';
import { downloadFiles } from './downloads.js';
import { openApiDocument } from './openapi.js';
import { FAVICON_SVG, renderIndexPage, renderNotFoundPage } from './page.js';

export interface Outputs {
  /** Build output the function imports (`.build/`). */
  buildDir: string;
  /** Static files Netlify publishes (`public/`). */
  publicDir: string;
  datasets: Record<Profile, BuiltDataset>;
  served: Profile;
  schemas: Record<string, Record<string, unknown>>;
  changes: Record<Profile, ChangeLog>;
}

/**
 * Writes both folders whole, each into a fresh sibling that then replaces the old one, so a
 * reader never sees half a build and a failed write leaves the last good output in place.
 */
export async function writeOutputs(o: Outputs): Promise<void> {
  const build: Record<string, string | Uint8Array> = {};
  for (const p of PROFILES) build[`${p}.json`] = JSON.stringify(o.datasets[p]);
  Object.assign(build, servedFiles(o.datasets[o.served]));

  // Bundled first: a bundle that fails leaves both folders as they were.
  const explorer = await bundleExplorer();
  const served = o.datasets[o.served];
  const pub: Record<string, string | Uint8Array> = {
    ...explorer.files,
    'index.html': renderIndexPage(served, explorer.assets, o.changes[o.served]),
    '404.html': renderNotFoundPage(served, explorer.assets),
    'favicon.svg': FAVICON_SVG,
    // The whole relation network laid out once here, so that the page draws it without waiting.
    'network-layout.json': JSON.stringify(
      forceLayout(
        served.players.map((p) => p.id),
        served.relations,
      ),
    ),
  };
  for (const [stem, schema] of Object.entries(o.schemas)) pub[`schemas/${stem}.schema.json`] = json(schema);
  for (const p of PROFILES) pub[`openapi-${p}.json`] = json(openApiDocument({ dataset: o.datasets[p], schemas: o.schemas }));
  // The stable URL of the deployment's own description.
  pub['openapi.json'] = pub[`openapi-${o.served}.json`]!;
  for (const p of PROFILES) Object.assign(pub, downloadFiles(o.datasets[p]));
  for (const p of PROFILES) pub[`changes-${p}.json`] = json(o.changes[p]);
  pub['changes.json'] = pub[`changes-${o.served}.json`]!;
  Object.assign(pub, discoveryFiles(o.datasets[o.served]));

  await replaceDir(o.buildDir, build);
  await replaceDir(o.publicDir, pub);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * What the function loads: the served profile prepared at build time. `served.bin` is the image
 * (every record's JSON bytes in response order, and the indexes), used in place: an instance
 * reads the indexes when it opens it and each page of record bytes when a query first needs it;
 * `served.js` carries the small header and opens the image on first use. The image is a
 * file of its own because a module of that size would cost the JavaScript parser far more than a
 * file read: at ×100 (90 MB) a string literal takes seconds to compile, the file ~0.1 s to read.
 */
export function servedFiles(d: BuiltDataset): { 'served.js': string; 'served.bin': Uint8Array } {
  const { header, bytes } = buildImage(d);
  return { 'served.js': servedModule(header), 'served.bin': bytes };
}

/**
 * The module behind `#served`. Unbundled (`npm start`, tests) it sits beside served.bin. Bundled
 * into the function, Netlify ships `.build/served.bin` through `included_files` at the same place
 * relative to the bundle as in the project (two folders up from functions/chronicle/), and
 * Netlify's local emulation builds the function inside the project: both are found by looking in
 * each folder up from the module, for served.bin and .build/served.bin. A file of another build
 * is passed over (the image starts with the build's version), so a stale one is never served.
 */
export function servedModule(header: ImageHeader): string {
  return `// Written by \`npm run build\`: the served profile's header; the records and indexes are in served.bin.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';

const header = JSON.parse(${JSON.stringify(JSON.stringify(header))});

function find() {
  const tried = [];
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    for (const name of ['served.bin', '.build/served.bin']) {
      const file = new URL(name, dir);
      tried.push(file.pathname);
      if (existsSync(file) && startsWith(file, header.version)) return file;
    }
    if (dir.pathname === '/') break;
  }
  throw new Error('served.bin of build ' + header.version + ' not found: tried ' + tried.join(', '));
}

// Kept open for the instance's life: the records are read from it as queries first need them.
function open() {
  const fd = openSync(find(), 'r');
  return { size: fstatSync(fd).size, read: (into, offset, length, position) => readSync(fd, into, offset, length, position) };
}

function startsWith(file, text) {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(text.length);
    readSync(fd, head, 0, head.length, 0);
    return head.toString() === text;
  } finally {
    closeSync(fd);
  }
}

export default { ...header, open };
`;
}

async function replaceDir(dir: string, files: Record<string, string | Uint8Array>): Promise<void> {
  const next = `${dir}.next-${process.pid}`;
  const prev = `${dir}.prev-${process.pid}`;
  await rm(next, { recursive: true, force: true });
  for (const [name, text] of Object.entries(files)) {
    const path = join(next, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
  await rename(dir, prev).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
  await rename(next, dir);
  await rm(prev, { recursive: true, force: true });
}
