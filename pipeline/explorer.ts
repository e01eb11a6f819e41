import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { PageAssets } from './page.js';

/** The browser code: site/ holds it, the build bundles it into public/. */
export const SITE_DIR = fileURLToPath(new URL('../site/', import.meta.url));

export interface ExplorerBundle {
  /** public/ path → text */
  files: Record<string, string>;
  assets: PageAssets;
}

let bundled: Promise<ExplorerBundle> | undefined;

/**
 * Bundles site/main.ts (with the function's query and select modules it imports) into app.js and
 * site/style.css into app.css, minified. The bundle does not depend on the dataset, so one process
 * makes it once.
 */
export function bundleExplorer(): Promise<ExplorerBundle> {
  bundled ??= make().catch((err: unknown) => {
    bundled = undefined;
    throw err;
  });
  return bundled;
}

async function make(): Promise<ExplorerBundle> {
  const result = await build({
    absWorkingDir: SITE_DIR,
    entryPoints: [
      { in: 'main.ts', out: 'app' },
      { in: 'style.css', out: 'app' },
    ],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
    platform: 'browser',
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    outdir: 'out',
    logLevel: 'silent',
  });
  const files: Record<string, string> = {};
  const assets: Partial<PageAssets> = {};
  for (const f of result.outputFiles) {
    const name = f.path.slice(f.path.lastIndexOf('/') + 1);
    files[name] = f.text;
    const hash = createHash('sha256').update(f.contents).digest('hex').slice(0, 10);
    if (name === 'app.js') assets.js = `/app.js?v=${hash}`;
    if (name === 'app.css') assets.css = `/app.css?v=${hash}`;
  }
  if (!assets.js || !assets.css) throw new Error(`the explorer bundle lacks app.js or app.css: ${Object.keys(files).join(', ')}`);
  return { files, assets: assets as PageAssets };
}
