// The handler section of `npm run bench`, run in a process of its own per scale: the handler
// opens the served image as a deployed instance does, and nothing else lives in the heap. Run
// inside the benchmark, whose heap holds every scale's dataset as objects, each full collection
// had to mark a gigabyte that no instance has, and that was what p99 at ×100 measured.
//   node --import tsx scripts/bench/handler.ts <dir with served.js> <shapes.json> <iterations>
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Served } from '../../functions/chronicle/image.js';
import { bodyOfChunks, chunkReader, type Body } from '../../functions/chronicle/body.js';
import { createHandler, streamOf } from '../../functions/chronicle/handler.js';
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

type Handler = (req: Request) => Response;
const handlers: Record<'uncached' | 'cached', Handler> = {
  uncached: createHandler(served, { cacheBytes: 0 }),
  cached: createHandler(served),
};
/**
 * An answer's chunks as the uncached handler hands them on once warm (a column builds its grouped
 * copy on its second query), kept for the stream floor below.
 */
async function chunksOf(q: BenchQuery): Promise<Uint8Array<ArrayBuffer>[]> {
  let chunks: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < 3; i++) {
    const reader = handlers.uncached(new Request(`http://localhost${q.path}`)).body?.getReader();
    chunks = [];
    if (reader) for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value as Uint8Array<ArrayBuffer>);
  }
  return chunks;
}
// The floor: a handler that answers `{}`, timed the same way. Its p99 is what the machine adds.
const fixed = () => new Response('{}');
const all: (BenchQuery | undefined)[] = [undefined, ...shapes];
const times = all.map(() => ({ uncached: [] as number[], cached: [] as number[], floor: [] as number[], bytes: 0, chunks: 1 }));
const call = async (q: BenchQuery | undefined, h: (req: Request) => Response) => {
  const t = performance.now();
  const res = q ? h(new Request(`http://localhost${q.path}`)) : fixed();
  const bytes = await drain(res);
  if (q && res.status !== q.status) throw new Error(`${q.path}: ${res.status}, expected ${q.status}`);
  return { ms: performance.now() - t, bytes };
};
/** Samples every shape in rounds, shape after shape, with the handlers `of` gives it. */
async function measure(of: (q: BenchQuery | undefined) => Partial<Record<'uncached' | 'cached' | 'floor', Handler>>) {
  // Steady state: warm-up calls first, so that JIT tiering and the first use of an index are not
  // counted as latency (cold start is measured on its own). The samples of every shape are taken
  // in rounds, shape after shape, so that a burst of load from elsewhere on the machine lands on
  // all shapes alike rather than on whichever was running.
  for (const q of all) for (const h of Object.values(of(q))) for (let i = 0; i < iterations / 10; i++) await call(q, h);
  for (let round = 0; round < rounds; round++) {
    for (const [k, q] of all.entries()) {
      for (const [which, h] of Object.entries(of(q)) as [keyof typeof handlers | 'floor', Handler][]) {
        for (let i = 0; i < iterations / rounds; i++) {
          const r = await call(q, h);
          times[k]![which].push(r.ms);
          times[k]!.bytes = r.bytes;
        }
      }
    }
  }
}
await measure(() => handlers);
// The stream floor of each shape, measured after the handlers so that its garbage lands on none
// of their samples: a Response streaming that shape's very chunks, made beforehand, read the same
// way. No selecting or laying out: what the Response and its reader cost alone for that many
// chunks, and so the least any answer sent as those chunks can take.
const prebuilt = new Map<BenchQuery, Body>();
for (const [k, q] of all.entries()) {
  if (!q) continue;
  const body = bodyOfChunks(await chunksOf(q));
  prebuilt.set(q, body);
  times[k]!.chunks = body.count;
}
const streamed = (q: BenchQuery) => () => {
  const body = prebuilt.get(q)!;
  return new Response(body.count === 1 ? chunkReader(body)()! : streamOf(body), { status: q.status });
};
await measure((q) => ({ floor: q ? streamed(q) : fixed }));
process.stdout.write(JSON.stringify(times));
