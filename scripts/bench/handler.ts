// The handler section of `npm run bench`, run in a process of its own per scale: the handler
// opens the served image as a deployed instance does, and nothing else lives in the heap. Run
// inside the benchmark, whose heap holds every scale's dataset as objects, each full collection
// had to mark a gigabyte that no instance has, and that was what p99 at ×100 measured.
//   node --import tsx scripts/bench/handler.ts <dir with served.js> <shapes.json> <iterations>
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Served } from '../../functions/chronicle/image.js';
import { createHandler } from '../../functions/chronicle/handler.js';
import type { BenchQuery } from './queries.js';
import { readFileSync } from 'node:fs';

const [dir, shapesFile, iterationsArg] = process.argv.slice(2);
const served = (await import(pathToFileURL(join(dir!, 'served.js')).href)).default as Served;
const shapes = JSON.parse(readFileSync(shapesFile!, 'utf8')) as BenchQuery[];
const iterations = Number(iterationsArg);
const rounds = 10;

/**
 * Reads a body to its end the way a server writing it to a socket does, chunk by chunk. Collecting
 * it with arrayBuffer() would add a copy of the whole body that no server makes, and at ×100 the
 * collector's work on those copies would be most of what is measured.
 */
async function drain(res: Response): Promise<number> {
  const reader = res.body?.getReader();
  let bytes = 0;
  if (reader) for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
  return bytes;
}

const handlers = { uncached: createHandler(served, { cacheBytes: 0 }), cached: createHandler(served) };
// The floor: a handler that answers `{}`, timed the same way. Its p99 is what the machine adds.
const fixed = () => new Response('{}');
const all: (BenchQuery | undefined)[] = [undefined, ...shapes];
const times = all.map(() => ({ uncached: [] as number[], cached: [] as number[], bytes: 0 }));
const call = async (q: BenchQuery | undefined, h: (req: Request) => Response) => {
  const t = performance.now();
  const res = q ? h(new Request(`http://localhost${q.path}`)) : fixed();
  const bytes = await drain(res);
  if (q && res.status !== q.status) throw new Error(`${q.path}: ${res.status}, expected ${q.status}`);
  return { ms: performance.now() - t, bytes };
};
// Steady state: warm-up calls first, so that JIT tiering and the first use of an index are not
// counted as latency (cold start is measured on its own). The samples of every shape are taken
// in rounds, shape after shape, so that a burst of load from elsewhere on the machine lands on
// all shapes alike rather than on whichever was running.
for (const q of all) for (const h of [handlers.uncached, handlers.cached]) for (let i = 0; i < iterations / 10; i++) await call(q, h);
for (let round = 0; round < rounds; round++) {
  for (const [k, q] of all.entries()) {
    for (const which of ['uncached', 'cached'] as const) {
      for (let i = 0; i < iterations / rounds; i++) {
        const r = await call(q, handlers[which]);
        times[k]![which].push(r.ms);
        times[k]!.bytes = r.bytes;
      }
    }
  }
}
process.stdout.write(JSON.stringify(times));
