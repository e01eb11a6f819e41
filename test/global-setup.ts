import { execFileSync } from 'node:child_process';
import { ROOT } from './helpers.js';

// The served-function tests import the built dataset, so build it once, as `npm run build` does.
export default function setup(): void {
  execFileSync(process.execPath, ['--import', 'tsx', 'pipeline/cli.ts', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}
