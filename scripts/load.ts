// `npm run load`: 60 s at 100 concurrent connections against the local server (`npm start`'s,
// with the built dataset), cycling through the benchmark's query mix. Reports errors, non-2xx
// answers (every query in the mix is valid, so there must be none) and the server's memory
// before and after. Exits non-zero on any error.
//   --duration 60 --connections 100
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { BuiltDataset } from '../functions/chronicle/dataset.js';
import { queryMix } from './bench/queries.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: { duration: { type: 'string', default: '60' }, connections: { type: 'string', default: '100' } },
});

const served = JSON.parse(await readFile(`${ROOT}.build/A.json`, 'utf8').catch(() => '{}')) as BuiltDataset;
if (!served.events) throw new Error('No build output: run `npm run build` first');
const paths = [
  ...queryMix(served)
    .filter((q) => q.status === 200)
    .map((q) => q.path),
  '/api/chronicle?include=relations',
  '/api/chronicle?include=players&region=US',
];

const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
  cwd: ROOT,
  env: { ...process.env, PORT: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
const url = await new Promise<string>((resolve) => {
  server.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
    if (m) resolve(m[1]!);
  });
});

const memory = async () => {
  const status = await readFile(`/proc/${server.pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMiB: (kb('VmRSS') / 1024).toFixed(1), peakMiB: (kb('VmHWM') / 1024).toFixed(1) };
};

// Warm the instance as a platform would before counting.
for (const p of paths) await fetch(url + p).then((r) => r.arrayBuffer());
const before = await memory();
process.stderr.write(
  `load: ${args.connections} connections for ${args.duration} s against ${url} (${paths.length} queries in rotation)…\n`,
);
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const options = {
    url,
    connections: Number(args.connections),
    duration: Number(args.duration),
    requests: paths.map((path) => ({ method: 'GET' as const, path })),
  };
  const instance = autocannon(options, (err, res) => (err ? reject(err) : resolve(res)));
  autocannon.track(instance, { renderProgressBar: true, renderResultsTable: false, renderLatencyTable: false });
});
const after = await memory();
const afterError = await fetch(`${url}/api/chronicle?topic=nope`);

console.log(
  `requests:       ${result.requests.total} (${Math.round(result.requests.average)}/s), latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
);
console.log(`errors:         ${result.errors} (timeouts ${result.timeouts})`);
console.log(`non-2xx:        ${result.non2xx}`);
console.log(`memory before:  RSS ${before.rssMiB} MiB (peak ${before.peakMiB} MiB)`);
console.log(`memory after:   RSS ${after.rssMiB} MiB (peak ${after.peakMiB} MiB)`);
console.log(`still answers:  ${afterError.status} to an invalid query`);

server.kill('SIGTERM');
await once(server, 'exit');
process.exitCode = result.errors || result.non2xx || result.timeouts || afterError.status !== 400 ? 1 : 0;
