// A benchmark server: `node --import tsx scripts/bench/server.ts <mode> <dataset.json> <paths.json>`
// (the bench runs it bundled, from the repository root)
// prints its URL and serves the dataset in one of these ways:
//   chronicle          the function as `npm start` serves it (its server, cached answers)
//   chronicle-nocache  the same with the answer cache off: every request parses, selects, writes
//   limit              a bare node:http server writing the function's exact bytes and headers for
//                      each path, precomputed: no parsing, no filtering, no framework
//   naive              node:http and the code a developer would write first: the dataset parsed
//                      once at start; per request, check the query, filter, JSON.stringify
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BuiltDataset, Kind } from '../../functions/chronicle/dataset.js';
import { createHandler, createNodeHandler } from '../../functions/chronicle/handler.js';
import { startServer } from '../server.js';

const [mode, datasetPath, pathsFile] = process.argv.slice(2) as [string, string, string];
const dataset = JSON.parse(readFileSync(datasetPath, 'utf8')) as BuiltDataset;
const paths = JSON.parse(readFileSync(pathsFile, 'utf8')) as string[];
// The repository root: the bench starts this script there, bundled or not.
const root = process.cwd();

let url: string;
let close: () => Promise<unknown>;
if (mode === 'chronicle' || mode === 'chronicle-nocache') {
  const handle = createNodeHandler(dataset, mode === 'chronicle-nocache' ? { cacheBytes: 0 } : {});
  const server = await startServer({ handle, functionPaths: ['/api/*'], root, port: 0 });
  url = server.url;
  close = () => server.close(true);
} else {
  const listener = mode === 'limit' ? await limit() : mode === 'naive' ? naive() : undefined;
  if (!listener) throw new Error(`unknown mode ${mode}`);
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  close = () => new Promise((resolve) => server.close(resolve));
}
process.stdout.write(`${url}\n`);
process.on('SIGTERM', () => void close().then(() => process.exit(0)));

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The limit: per path, the function's status, headers and body, computed before listening. */
async function limit(): Promise<Listener> {
  const handler = createHandler(dataset, { cacheBytes: 0 });
  const answers = new Map<string, { status: number; headers: string[]; body: Buffer }>();
  for (const path of paths) {
    const res = handler(new Request(`http://localhost${path}`));
    answers.set(path, { status: res.status, headers: [...res.headers].flat(), body: Buffer.from(await res.arrayBuffer()) });
  }
  return (req, res) => {
    const a = answers.get(req.url!);
    if (!a) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(a.status, a.headers);
    res.end(a.body);
  };
}

/**
 * The realistic naive server: what a developer writes first, and it is not slow. The dataset is
 * parsed once; each request is checked (unknown parameters and values outside their lists are
 * 400s, as the contract requires), filtered record by record and serialized with JSON.stringify.
 */
function naive(): Listener {
  const d = dataset;
  const allowed: Record<string, ReadonlySet<string>> = {
    include: new Set(d.kinds),
    topic: new Set(d.filters.topic),
    region: new Set(d.filters.region),
    status: new Set(d.filters.status),
    player: new Set(d.players.map((p) => p.id)),
    key: new Set(['true', 'false']),
  };
  const topicOf = new Map(d.events.map((e) => [e.id, e.topic]));
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Access-Control-Allow-Origin': '*',
    'Cache-Control': 'public, max-age=3600',
  };
  const cut = (a: string, b: string) => [a.slice(0, Math.min(a.length, b.length)), b.slice(0, Math.min(a.length, b.length))] as const;
  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      ...headers,
      ...(status === 200 ? {} : { 'Cache-Control': 'no-store' }),
      'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
  };
  return (req, res) => {
    const u = new URL(req.url!, 'http://localhost');
    if (u.pathname !== '/api/chronicle') return send(res, 404, { message: 'not found' });
    const q: Record<string, string[]> = {};
    const problems: string[] = [];
    for (const [name, value] of u.searchParams) {
      const items = value.split(',').map((v) => v.trim());
      if (!(name in allowed) && name !== 'from' && name !== 'to') problems.push(`unknown parameter ${name}`);
      else if (name === 'from' || name === 'to') {
        if (items.some((v) => !/^\d{4}(-\d{2}(-\d{2})?)?$/.test(v))) problems.push(`bad ${name}`);
      } else if (items.some((v) => !allowed[name]!.has(v))) problems.push(`bad ${name}: ${items.join(', ')}`);
      (q[name] ??= []).push(...items);
    }
    if (problems.length) return send(res, 400, { message: problems.join(' ') });
    const has = (name: string, v: string) => !q[name] || q[name].includes(v);
    const inRange = (date: string) =>
      (!q.from || q.from.some((b) => cut(date, b)[0] >= cut(date, b)[1])) &&
      (!q.to || q.to.some((b) => cut(date, b)[0] <= cut(date, b)[1]));
    const records: Record<Kind, unknown[]> = {
      events: d.events.filter(
        (e) =>
          has('topic', e.topic) &&
          has('region', e.region) &&
          has('status', e.status) &&
          (!q.player || e.players.some((p) => q.player!.includes(p))) &&
          inRange(e.date) &&
          has('key', String(e.key)),
      ),
      relations: d.relations.filter(
        (r) =>
          (!q.topic || q.topic.includes(r.topic)) && (!q.player || q.player.includes(r.a) || q.player.includes(r.b)) && inRange(r.year),
      ),
      players: d.players.filter((p) => has('region', p.region)),
      initiatives: (d.initiatives ?? []).filter((i) => !q.topic || i.eventIds.some((id) => q.topic!.includes(topicOf.get(id)!))),
    };
    const kinds = d.kinds.filter((k) => has('include', k));
    send(res, 200, {
      meta: { ...d.meta, counts: Object.fromEntries(kinds.map((k) => [k, records[k].length])) },
      labels: d.labels,
      ...Object.fromEntries(kinds.map((k) => [k, records[k]])),
    });
  };
}
