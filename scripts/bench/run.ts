// `npm run bench`: how fast the pipeline and the API are, against baselines run side by side in
// this process tree. Prints Markdown tables (copied into docs/performance.md).
//   --only pipeline,handler,cold,http   sections to run (default: all)
//   --sizes 1,10,100                    data scales for pipeline, handler and cold start
//   --http-sizes 1                      data scales for the HTTP comparison
//   --duration 2 --rounds 3             seconds of load per server, query and round; rounds (medians)
//   --work DIR                          keep the scaled content and datasets in DIR and reuse them
//                                       when the pipeline section is not run (default: a fresh temp dir)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { build as esbuild } from 'esbuild';
import fg from 'fast-glob';
import { parse } from 'yaml';
import { READS_IN_FLIGHT } from '../../pipeline/load.js';
import type { BuiltDataset } from '../../functions/chronicle/dataset.js';
import { runPipeline } from '../../pipeline/build.js';
import { servedFiles } from '../../pipeline/output.js';
import { handlerShapes, queryMix, type BenchQuery } from './queries.js';
import { median, ms, percentile, ratio, table } from './stats.js';
import { scaleContent } from './synth.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'pipeline,handler,cold,http' },
    sizes: { type: 'string', default: '1,10,100' },
    'http-sizes': { type: 'string', default: '1' },
    duration: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    work: { type: 'string' },
  },
});
const only = new Set(args.only!.split(','));
const sizes = args.sizes!.split(',').map(Number);
const httpSizes = args['http-sizes']!.split(',').map(Number);
const duration = Number(args.duration);
const rounds = Number(args.rounds);
const say = (s: string) => process.stderr.write(`${s}\n`);
const print = (s: string) => process.stdout.write(`${s}\n`);

const work = args.work ?? (await mkdtemp(join(tmpdir(), 'chronicle-bench-')));
await mkdir(work, { recursive: true });
const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((c) => c.kill()));

print(`# Benchmark run ${new Date().toISOString()}`);
print(`Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`);

// ---------------------------------------------------------------------------------------------
// Data at each scale, and the pipeline against the bare cost of reading and parsing the YAML.
const datasets = new Map<number, BuiltDataset>();
const pipelineRows: string[][] = [];
for (const n of [...new Set([...sizes, ...httpSizes])].sort((a, b) => a - b)) {
  const dir = join(work, `content-x${n}`);
  const saved = join(work, `A-x${n}.json`);
  if (args.work && !only.has('pipeline') && existsSync(saved)) {
    datasets.set(n, JSON.parse(await readFile(saved, 'utf8')) as BuiltDataset);
    continue;
  }
  say(`scaling content ×${n}…`);
  const files = await scaleContent(join(ROOT, 'content'), dir, n);
  const runs = n >= 100 ? 2 : 3;
  const pipe: number[] = [];
  const bare: number[] = [];
  // The last run's result only: the previous run's datasets would stay reachable through the
  // next run, and every full collection of that run would mark them (at ×100, a gigabyte that the
  // bare parse never holds).
  const last: Awaited<ReturnType<typeof runPipeline>>[] = [];
  for (let i = 0; i < runs; i++) {
    say(`  pipeline ×${n}, run ${i + 1}/${runs}`);
    // The bare cost: glob, read and YAML.parse every file, with as many reads in flight as the
    // pipeline keeps (READS_IN_FLIGHT), so that only the pipeline's own work differs.
    let t = performance.now();
    const names = await fg('**/*.yaml', { cwd: dir, ignore: ['schemas/**'] });
    let next = 0;
    const worker = async () => {
      while (next < names.length) parse(await readFile(join(dir, names[next++]!), 'utf8'));
    };
    await Promise.all(Array.from({ length: READS_IN_FLIGHT }, worker));
    bare.push(performance.now() - t);
    last.length = 0;
    t = performance.now();
    last.push(await runPipeline({ contentDir: dir, asOf: '2026-01-01' }));
    pipe.push(performance.now() - t);
  }
  const result = last[0]!;
  if (result.diagnostics.length)
    throw new Error(`scaled content ×${n} does not validate: ${JSON.stringify(result.diagnostics.slice(0, 3))}`);
  datasets.set(n, result.datasets!.A);
  await writeFile(join(work, `A-x${n}.json`), JSON.stringify(result.datasets!.A));
  pipelineRows.push([
    `×${n}`,
    String(files),
    String(result.datasets!.A.events.length),
    ms(median(bare)),
    ms(median(pipe)),
    ratio(median(pipe), median(bare)),
  ]);
}
if (only.has('pipeline')) {
  print(`## Pipeline (validate, cross-check, project both profiles) vs bare read + YAML.parse, both ${READS_IN_FLIGHT} reads in flight\n`);
  print(table(['scale', 'files', 'events (A)', 'bare parse ms', 'pipeline ms', 'pipeline / bare'], pipelineRows));
  print('');
}

const kb = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`);

/**
 * A bench script bundled as Netlify bundles the function (esbuild, packages left to node_modules),
 * so that the processes measured run the code that ships: run through tsx instead, every function
 * would also carry the name-keeping wrapper that tsx adds and the deployed bundle does not.
 */
async function shipped(entry: string): Promise<string> {
  // Beside node_modules, so that the packages left out of the bundle resolve as they do for the source.
  const outfile = join(ROOT, 'node_modules/.cache/bench', entry.replace(/\.ts$/, '.mjs'));
  await esbuild({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

// ---------------------------------------------------------------------------------------------
// Handler latency in-process, per query shape, with the answer cache off (every call parses,
// selects and writes) and on (a repeated query string is a lookup).
if (only.has('handler')) {
  print('## Handler latency in-process (ms, body read to its end)\n');
  const rows: string[][] = [];
  for (const n of sizes) {
    const d = datasets.get(n)!;
    // p99 needs ≥ 200 samples to mean much. Measured in a process of its own (scripts/bench/handler.ts).
    const iterations = n >= 100 ? 200 : n >= 10 ? 500 : 2000;
    say(`handler ×${n}…`);
    const floor: BenchQuery = { name: 'floor: a handler answering {}', path: '/api/chronicle', status: 200 };
    const shapes = handlerShapes(d);
    const dir = join(work, `handler-x${n}`);
    await mkdir(dir, { recursive: true });
    for (const [name, data] of Object.entries(servedFiles(d))) await writeFile(join(dir, name), data);
    await writeFile(join(dir, 'shapes.json'), JSON.stringify(shapes));
    const child = spawnSync(
      process.execPath,
      [await shipped('scripts/bench/handler.ts'), dir, join(dir, 'shapes.json'), String(iterations)],
      { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 },
    );
    if (child.status !== 0) throw new Error(`handler ×${n}: ${child.stderr}`);
    const times = JSON.parse(child.stdout) as (Record<'uncached' | 'cached' | 'floor', number[]> & { bytes: number; chunks: number })[];
    for (const [k, q] of [floor, ...shapes].entries()) {
      const cells = (['uncached', 'cached', 'floor'] as const).flatMap((which) => {
        const sorted = times[k]![which].sort((a, b) => a - b);
        return [ms(percentile(sorted, 0.5)), ms(percentile(sorted, 0.99))];
      });
      rows.push([`×${n}`, q.selective ? `${q.name} †` : q.name, kb(times[k]!.bytes), String(times[k]!.chunks), ...cells]);
    }
  }
  print(
    table(
      [
        'scale',
        'query († selective)',
        'body',
        'chunks',
        'uncached p50',
        'uncached p99',
        'cached p50',
        'cached p99',
        'its chunks streamed p50',
        'its chunks streamed p99',
      ],
      rows,
    ),
  );
  print(
    '\n_Its chunks streamed_: a Response streaming the very chunks of that answer, made beforehand, read the same way: what the stream alone costs for them.',
  );
  print('');
}

// ---------------------------------------------------------------------------------------------
// Cold start: a fresh process imports the bundled function (as Netlify bundles it) and answers.
if (only.has('cold')) {
  print('## Cold start: import the bundled function and answer the first request (fresh process)\n');
  const rows: string[][] = [];
  const runner = join(work, 'cold.mjs');
  await writeFile(
    runner,
    `// The runtime has its Request and Response classes loaded before it calls a function; in a bare
// node process their first use loads undici (~50 ms), which is the platform's cost, timed apart.
const p0 = performance.now();
new Response(new ReadableStream()).headers.get('x');
new Request('http://localhost/').headers.get('x');
const platform = performance.now() - p0;
const t0 = performance.now();
const { default: fn } = await import(process.argv[2]);
const res = await fn(new Request('http://localhost/api/chronicle?topic=' + process.argv[3]));
// The runtime streams a body out chunk by chunk; it never holds it whole. Concatenating it (what
// res.arrayBuffer() does) is the client's cost, timed apart: at ×100 a copy of tens of MB.
if (process.argv[5] === 'whole') await res.arrayBuffer();
else for await (const chunk of res.body) chunk.byteLength;
const cold = performance.now() - t0;
const rssMb = process.memoryUsage().rss / 2 ** 20;
// Sampled here, not read from getrusage: a spawned child's maxRSS starts at its parent's RSS at
// fork time, which would report the benchmark's own memory.
let maxRssMb = rssMb;
for (const q of JSON.parse(process.argv[4])) {
  await (await fn(new Request('http://localhost' + q))).arrayBuffer();
  maxRssMb = Math.max(maxRssMb, process.memoryUsage().rss / 2 ** 20);
}
console.log(JSON.stringify({ cold, boot: p0, platform, rssMb, maxRssMb }));
`,
  );
  for (const n of sizes) {
    const d = datasets.get(n)!;
    // Laid out as Netlify ships the function: the bundle where its source was, with `#served`
    // bundled in, and .build/served.bin beside it as an included file.
    const dir = join(work, `fn-x${n}`);
    await mkdir(join(dir, '.build'), { recursive: true });
    const served = servedFiles(d);
    for (const [name, data] of Object.entries(served)) await writeFile(join(dir, '.build', name), data);
    const bundle = join(dir, 'functions', 'chronicle', 'chronicle.mjs');
    await esbuild({
      entryPoints: [join(ROOT, 'functions/chronicle/chronicle.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: bundle,
      alias: { '#served': join(dir, '.build', 'served.js') },
      logLevel: 'error',
    });
    type Sample = { cold: number; boot: number; platform: number; rssMb: number; maxRssMb: number };
    const samples: Sample[] = [];
    const whole: Sample[] = [];
    const mix = JSON.stringify(queryMix(d).map((q) => q.path));
    const coldStart = (body: 'stream' | 'whole', queries: string): Sample => {
      const r = spawnSync(process.execPath, [runner, bundle, d.filters.topic[0]!, queries, body], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      return JSON.parse(r.stdout) as Sample;
    };
    // Interleaved, so that a slow moment of the machine hits both ways of reading the body alike.
    for (let i = 0; i < 11; i++) {
      samples.push(coldStart('stream', mix));
      if (i % 2 === 0) whole.push(coldStart('whole', '[]'));
    }
    rows.push([
      `×${n}`,
      `${kb((await readFile(bundle)).byteLength)} + ${kb(served['served.bin'].byteLength)}`,
      ms(median(samples.map((s) => s.cold))),
      ms(median(whole.map((s) => s.cold))),
      ms(median(samples.map((s) => s.boot))),
      ms(median(samples.map((s) => s.platform))),
      `${median(samples.map((s) => s.rssMb)).toFixed(0)} MiB`,
      `${Math.max(...samples.map((s) => s.maxRssMb)).toFixed(0)} MiB`,
    ]);
  }
  print(
    table(
      [
        'scale',
        'bundle + image',
        'import + first answer ms, body streamed (median of 11)',
        'the same, body concatenated by the client (median of 6)',
        'node boot ms',
        'Request/Response first use ms (platform)',
        'RSS after the first answer',
        'peak RSS after the whole mix (bodies read whole)',
      ],
      rows,
    ),
  );
  print('');
}

// ---------------------------------------------------------------------------------------------
// HTTP throughput: our server against the limit, json-server and a naive handler.
async function freePort(): Promise<number> {
  const s = createServer();
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as { port: number }).port;
  s.close();
  return port;
}

/** Each server's process, by its URL: its CPU time is read from /proc around each load. */
const pids = new Map<string, number>();

async function start(cmd: string, argv: string[], url?: string): Promise<string> {
  const child = spawn(cmd, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  if (url) {
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(url).then(
          (r) => r.ok,
          () => false,
        )
      ) {
        pids.set(url.replace(/\/db$/, ''), child.pid!);
        return url;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${cmd} ${argv.join(' ')} did not start`);
  }
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const base = line.toString().trim().replace(/\/$/, '');
  pids.set(base, child.pid!);
  return base;
}

/** CPU seconds (user + system) a process has used, from /proc; NaN where there is no /proc. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU time per request, µs: unlike requests/s, barely moved by other load on the machine. */
  cpu: number;
}

// wrk (C) where installed: autocannon parses responses in JavaScript and, on a 2-core machine,
// saturates before a fast server does on large bodies, which would hide the differences measured.
const wrk = spawnSync('wrk', ['--version']).error === undefined;
if (only.has('http') && !wrk) say('wrk not found (apt-get install wrk): falling back to autocannon, which tops out early on large bodies');

function loadWrk(url: string, status: number): Load {
  const pid = pids.get(new URL(url).origin);
  const before = cpuSeconds(pid);
  // wrk's default 2-s timeout makes one slow answer of the slowest baseline on a busy machine a failed run.
  const r = spawnSync('wrk', ['-t1', '-c32', `-d${duration}s`, '--timeout', '10s', '--latency', url], { encoding: 'utf8' });
  const cpu = cpuSeconds(pid) - before;
  const out = r.stdout;
  // A 400 shape must get 400s, which wrk counts as non-2xx: then every response must be one.
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: .*/.exec(out);
  if (r.status !== 0 || socket || (status === 200 ? non2xx > 0 : non2xx !== requests))
    throw new Error(`${url}: ${socket?.[0] ?? `${non2xx} of ${requests} non-2xx`} ${r.stderr}`);
  const latency = (q: string) => {
    const m = new RegExp(`${q}%\\s+([\\d.]+)(us|ms|s)`).exec(out)!;
    return Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2] as 'us' | 'ms' | 's'];
  };
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]), p50: latency('50'), p99: latency('99'), cpu: (cpu / requests) * 1e6 };
}

async function loadAutocannon(url: string, status: number): Promise<Load> {
  const pid = pids.get(new URL(url).origin);
  const before = cpuSeconds(pid);
  const r = await autocannon({ url, connections: 32, duration, pipelining: 1 });
  const cpu = cpuSeconds(pid) - before;
  if (r.errors || (status === 200 ? r.non2xx : r.non2xx !== r.requests.total))
    throw new Error(`${url}: ${r.errors} errors, ${r.non2xx} non-2xx`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpu: (cpu / r.requests.total) * 1e6 };
}

type ServerName = 'limit' | 'cached' | 'uncached' | 'naive' | 'jsonServer';

if (only.has('http')) {
  for (const n of httpSizes) {
    const d = datasets.get(n)!;
    const mix = queryMix(d);
    const dataset = join(work, `A-x${n}.json`);
    const paths = join(work, `paths-x${n}.json`);
    await writeFile(paths, JSON.stringify(mix.map((q) => q.path)));
    const db = join(work, `db-x${n}.json`);
    await writeFile(db, JSON.stringify({ events: d.events, relations: d.relations, players: d.players, initiatives: d.initiatives }));
    say(`starting servers for ×${n}…`);
    const server = await shipped('scripts/bench/server.ts');
    const servers: Record<ServerName, string> = {
      limit: await start(process.execPath, [server, 'limit', dataset, paths]),
      cached: await start(process.execPath, [server, 'chronicle', dataset, paths]),
      uncached: await start(process.execPath, [server, 'chronicle-nocache', dataset, paths]),
      naive: await start(process.execPath, [server, 'naive', dataset, paths]),
      jsonServer: await (async () => {
        const port = await freePort();
        return start(
          process.execPath,
          [join(ROOT, 'node_modules/json-server/lib/cli/bin.js'), '--port', String(port), '--host', '127.0.0.1', '--quiet', db],
          `http://127.0.0.1:${port}/db`,
        ).then(() => `http://127.0.0.1:${port}`);
      })(),
    };
    // The baselines must answer what we answer: same status, and for 200s the same JSON.
    for (const q of mix) {
      const ours = await fetch(servers.uncached + q.path);
      const body = await ours.text();
      for (const other of ['limit', 'cached', 'naive'] as const) {
        const res = await fetch(servers[other] + q.path);
        const text = await res.text();
        if (res.status !== q.status || ours.status !== q.status) throw new Error(`${other} ${q.path}: ${res.status} / ours ${ours.status}`);
        if (q.status === 200 && (other === 'naive' ? JSON.stringify(JSON.parse(text)) !== body : text !== body))
          throw new Error(`${other} ${q.path}: a different body`);
      }
    }
    const load = (url: string, status: number) => (wrk ? loadWrk(url, status) : loadAutocannon(url, status));
    print(
      `## HTTP on 127.0.0.1, ×${n} data: requests/s (p99 latency ms), ${wrk ? 'wrk, 1 thread' : 'autocannon'}, 32 connections, median of ${rounds} interleaved ${duration}-s runs\n`,
    );
    print(
      '(1) the limit: bare node:http writing the precomputed bytes and headers · ours: `npm start`’s stack, answer cache on (the same few query strings repeat, so every request is a hit) and off (every request parses, selects and writes) · (3) naive: node:http, dataset parsed once, filter + JSON.stringify per request · (4) json-server 0.17, closest equivalent query (no 400s)\n',
    );
    const rows: string[][] = [];
    const cpuRows: string[][] = [];
    // Interleaved rounds, medians: on a shared 2-core machine single runs vary by ±20%.
    for (const q of mix) {
      say(`  ${q.name}`);
      const names: ServerName[] = ['limit', 'cached', 'uncached', 'naive', ...(q.jsonServer ? (['jsonServer'] as const) : [])];
      const runs = Object.fromEntries(names.map((s) => [s, [] as Load[]])) as Record<ServerName, Load[]>;
      for (let round = 0; round < rounds; round++) {
        for (const s of names)
          runs[s].push(await load(servers[s] + (s === 'jsonServer' ? q.jsonServer! : q.path), s === 'jsonServer' ? 200 : q.status));
      }
      const mid = (xs: Load[]): Load | undefined =>
        xs.length
          ? {
              rps: median(xs.map((x) => x.rps)),
              p50: median(xs.map((x) => x.p50)),
              p99: median(xs.map((x) => x.p99)),
              cpu: median(xs.map((x) => x.cpu)),
            }
          : undefined;
      const r = Object.fromEntries(names.map((s) => [s, mid(runs[s])])) as Record<ServerName, Load | undefined>;
      const cell = (x?: Load) => (x ? `${Math.round(x.rps)} (${ms(x.p99)})` : '—');
      const rate = (a?: Load, b?: Load) => (a && b ? ratio(a.rps, b.rps) : '—');
      // Requests per CPU-second of the server, against the limit's: the same ratio measured by
      // work done rather than by a wall clock shared with every other process on the machine.
      const perCpu = (a?: Load, b?: Load) => (a && b ? ratio(b.cpu, a.cpu) : '—');
      cpuRows.push([
        q.name,
        ...[r.limit, r.cached, r.uncached, r.naive, r.jsonServer].map((x) => (x ? x.cpu.toFixed(0) : '—')),
        perCpu(r.cached, r.limit),
        perCpu(r.uncached, r.limit),
        perCpu(r.uncached, r.naive),
        perCpu(r.uncached, r.jsonServer),
      ]);
      rows.push([
        q.name,
        cell(r.limit),
        cell(r.cached),
        cell(r.uncached),
        cell(r.naive),
        cell(r.jsonServer),
        rate(r.cached, r.limit),
        rate(r.uncached, r.limit),
        rate(r.uncached, r.naive),
        rate(r.uncached, r.jsonServer),
      ]);
    }
    // The same servers head both tables; only the ratio columns differ.
    const SERVER_COLUMNS = ['query', '(1) limit', 'ours, cached', 'ours, uncached', '(3) naive', '(4) json-server'];
    print(table([...SERVER_COLUMNS, 'cached / (1)', 'uncached / (1)', 'uncached / (3)', 'uncached / (4)'], rows));
    print(`\n### Server CPU per request (µs, user + system, median of ${rounds} rounds), and requests per CPU-second against the limit\n`);
    print(table([...SERVER_COLUMNS, 'cached vs (1)', 'uncached vs (1)', 'uncached vs (3)', 'uncached vs (4)'], cpuRows));
    print('');
    for (const c of children.splice(0)) c.kill();
  }
}

if (!args.work) await rm(work, { recursive: true, force: true });
