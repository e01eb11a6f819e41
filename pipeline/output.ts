import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BuiltDataset, Profile } from '../functions/chronicle/dataset.js';
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
  const build: Record<string, string> = {};
  for (const p of PROFILES) build[`${p}.json`] = JSON.stringify(o.datasets[p]);
  build['served.js'] = servedModule(build[`${o.served}.json`]!);

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

/** The module the function imports. A JSON string parsed at load starts faster than the same data as an object literal. */
export function servedModule(datasetJson: string): string {
  return `export default JSON.parse(${JSON.stringify(datasetJson)});\n`;
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
