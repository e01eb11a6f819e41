import { spawnSync } from 'node:child_process';
import { ROOT } from './helpers.js';

// The served-function tests import the built dataset, so build it once, as `npm run build` does.
export default function setup(): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'pipeline/cli.ts', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run build failed before the tests:\n${r.stderr}`);
}
