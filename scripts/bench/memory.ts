// `npm run bench:memory`: what the answer cache really holds under a flood of distinct long
// queries (10,000 of about 8 KB), against the same handler with the cache off, side by side.
// Run with --expose-gc (the npm script does) so that each figure is taken after a full collection.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { createHandler } from '../../functions/chronicle/handler.js';
import { runPipeline } from '../../pipeline/build.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const MiB = 1024 * 1024;
const QUERIES = 10_000;

const r = await runPipeline({ contentDir: join(ROOT, 'content'), asOf: '2026-01-01' });
if (!r.datasets) throw new Error('content does not build');
const dataset = r.datasets.A;

/**
 * Memory once the collector has really finished: the backing stores of buffers that a collection
 * frees are released afterwards, off the main thread, so a reading right after one `gc()` still
 * counts the last answers' bodies (±20 MiB from run to run). Two pauses and collections settle it.
 */
async function usage() {
  for (let i = 0; i < 2; i++) {
    gc!();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  gc!();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers, rss: m.rss };
}

/** ~8 KB query strings, all distinct, all valid (repeated values are allowed and deduplicated). */
const query = (i: number) => `topic=${Array(1000).fill('deposit').join(',')}&from=${1900 + (i % 200)}&to=${2100 + Math.floor(i / 200)}`;

const rows: string[] = [];
// Each handler stays reachable until its growth is read: otherwise the collector may free it, and
// its cache with it, as soon as its last request is answered, and the cache's growth reads as zero.
const kept: unknown[] = [];
for (const [name, cacheBytes] of [
  ['cache off', 0],
  ['cache 64 MiB', 64 * MiB],
] as const) {
  const h = createHandler(dataset, { cacheBytes });
  kept.push(h);
  const before = await usage();
  for (let i = 0; i < QUERIES; i++) {
    const res = h(new Request(`http://bench/api/chronicle?${query(i)}`));
    if (res.status !== 200) throw new Error(`query ${i}: ${res.status}`);
    // Read as a server would: an unread body stays alive with its stream.
    await res.arrayBuffer();
  }
  const after = await usage();
  const grow = (k: keyof typeof after) => ((after[k] - before[k]) / MiB).toFixed(1);
  rows.push(`| ${name} | ${grow('heap')} | ${grow('buffers')} | ${grow('rss')} |`);
}
process.stdout.write(
  `${QUERIES} distinct queries of ${query(0).length} characters, growth after a full GC (MiB)\n\n| handler | heap | buffers | RSS |\n|---|---:|---:|---:|\n${rows.join('\n')}\n`,
);
