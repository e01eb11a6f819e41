import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ROOT } from './helpers.js';

// The served-function tests need a build, and the serving tests run `npm start`, which rebuilds.
// Both happen in a copy of the project, so `npm test` never replaces the build `npm start` serves
// from the checkout (a curator may be serving Profile B while the tests build A).
const COPIED = ['package.json', 'tsconfig.json', 'netlify.toml', 'content', 'published', 'pipeline', 'functions', 'scripts', 'site'];

declare module 'vitest' {
  export interface ProvidedContext {
    /** The project copy the tests build and serve from. */
    workspace: string;
    /**
     * The function's paths (`config.path` of functions/chronicle/chronicle.ts), read once after the
     * build: the module imports `.build/`, which a fresh clone lacks and `npm start` replaces.
     */
    functionPaths: string[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'chronicle-workspace-'));
  for (const name of COPIED) await cp(join(ROOT, name), join(dir, name), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'pipeline/cli.ts', 'build'], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run build failed before the tests:\n${r.stderr}`);
  project.provide('workspace', dir);
  const { config } = (await import(join(dir, 'functions/chronicle/chronicle.ts'))) as typeof import('../functions/chronicle/chronicle.js');
  project.provide('functionPaths', config.path);
  return () => rm(dir, { recursive: true, force: true });
}
