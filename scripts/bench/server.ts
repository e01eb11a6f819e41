// A benchmark server: `node --import tsx scripts/bench/server.ts <mode> <dataset.json> <paths.json>`
// prints its URL and serves the dataset in one of three ways, all on the same server stack as
// `npm start`:
//   chronicle  the function as deployed (prepared once, cached answers)
//   static     the limit: the function's exact bytes and headers for each path, precomputed
//   naive      per request: read and parse the dataset file, filter, serialize
// All three answer with the same Response class as `npm start` (srvx's FastResponse).
import { readFileSync } from 'node:fs';
import { FastResponse } from 'srvx';
import { fileURLToPath } from 'node:url';
import type { BuiltDataset } from '../../functions/chronicle/dataset.js';
import { createHandler } from '../../functions/chronicle/handler.js';
import { oracle } from '../../test/oracle.js';
import { startServer } from '../server.js';

const [mode, datasetPath, pathsFile] = process.argv.slice(2) as [string, string, string];
const dataset = JSON.parse(readFileSync(datasetPath, 'utf8')) as BuiltDataset;
const paths = JSON.parse(readFileSync(pathsFile, 'utf8')) as string[];

let fetch: (req: Request) => Response | Promise<Response>;
if (mode === 'chronicle') {
  fetch = createHandler(dataset, { Response: FastResponse });
} else if (mode === 'static') {
  const handler = createHandler(dataset, { cacheBytes: 0 });
  const answers = new Map<string, { status: number; headers: [string, string][]; body: Uint8Array<ArrayBuffer> }>();
  for (const path of paths) {
    const res = handler(new Request(`http://localhost${path}`));
    answers.set(path, { status: res.status, headers: [...res.headers], body: new Uint8Array(await res.arrayBuffer()) });
  }
  fetch = (req) => {
    const url = new URL(req.url);
    const a = answers.get(url.pathname + url.search)!;
    return new FastResponse(a.body, { status: a.status, headers: a.headers });
  };
} else if (mode === 'naive') {
  fetch = (req) => {
    const d = JSON.parse(readFileSync(datasetPath, 'utf8')) as BuiltDataset;
    const body = JSON.stringify(oracle(d, new URL(req.url).searchParams));
    return new FastResponse(body, { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
  };
} else {
  throw new Error(`unknown mode ${mode}`);
}

const server = await startServer({ fetch, functionPaths: ['/api/*'], root: fileURLToPath(new URL('../..', import.meta.url)), port: 0 });
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => void server.close(true).then(() => process.exit(0)));
