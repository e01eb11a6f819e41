import { hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import {
  assemble,
  bodyOfChunks,
  chunkReader,
  FOR_SOCKETS,
  FOR_STREAMS,
  forKeeping,
  ONE_BUFFER_BELOW,
  type Body,
  type Layout,
} from './body.js';
import type { BuiltDataset } from './dataset.js';
import { FEED_INCLUDE_MESSAGE, FEED_PATHS, FEED_TYPES, renderFeed, type FeedFormat } from './feed.js';
import { ALLOWED_METHODS, CACHE_HEADERS, COMMON_HEADERS, ERROR_CACHE_HEADERS, JSON_TYPE, PREFLIGHT_HEADERS } from './headers.js';
import type { Served } from './image.js';
import { prepare, type Prepared } from './prepare.js';
import { parseQuery, type Query } from './query.js';
import { selectIndexed } from './indexed.js';

export const API_PATH = '/api/chronicle';

export type Handler = (req: Request) => Response;

type ResponseClass = new (body?: BodyInit | null, init?: ResponseInit) => Response;

export interface HandlerOptions {
  /** Bytes of answers kept for repeated queries; 0 turns the cache off. */
  cacheBytes?: number;
  /** The Response class to answer with (tests pass one that fails or counts); the standard one by default. */
  Response?: ResponseClass;
  /** Where an internal error's detail goes; the client only ever sees a generic 500. */
  log?: (err: unknown) => void;
}

/** A successful answer, laid out once, with its headers ready for 200 and for 304. */
export interface Answer {
  etag: string;
  body: Body;
  ok: Record<string, string>;
  notModified: Record<string, string>;
}

/** What one request gets, whatever writes it out: a Response, or a Node server's socket. */
interface Reply {
  status: number;
  headers: Record<string, string>;
  body?: Body | string;
}

type Responder = (method: string, pathname: string, search: string, ifNoneMatch: string | null | undefined) => Reply;

/**
 * GET /api/chronicle over one built dataset: the served image (`.build/served.js`), or a dataset
 * object, laid out as an image here. It is prepared once, not per request. The dataset never
 * changes within an instance, so an answer depends on the query string alone: answers are kept in
 * a byte-bounded LRU keyed by the raw query string, and a repeated query costs a lookup.
 */
export function createHandler(input: BuiltDataset | Served, options: HandlerOptions = {}): Handler {
  const respond = createResponder(input, options);
  const R = options.Response ?? Response;
  const log = options.log ?? defaultLog;
  return (req) => {
    try {
      const url = new URL(req.url);
      const reply = respond(req.method, url.pathname, url.search.slice(1), req.headers.get('If-None-Match'));
      const body = reply.body === undefined || (req.method === 'HEAD' && reply.status === 200) ? null : bodyOf(reply.body, R);
      return new R(body, { status: reply.status, headers: reply.headers });
    } catch (err) {
      // The detail (stack, paths) goes to the log only; the client gets the API's error shape.
      log(err);
      return internalError(R);
    }
  };
}

/**
 * The same answers for a Node HTTP server, written straight to its response: the status, the
 * headers and the chunks, with no Request or Response object in between (`npm start`).
 */
export function createNodeHandler(input: BuiltDataset | Served, options: Omit<HandlerOptions, 'Response'> = {}) {
  const respond = createResponder(input, options, FOR_SOCKETS);
  const log = options.log ?? defaultLog;
  return (req: IncomingMessage, res: ServerResponse): void => {
    let reply: Reply;
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      reply = respond(req.method ?? 'GET', url.pathname, url.search.slice(1), req.headers['if-none-match']);
    } catch (err) {
      log(err);
      reply = { status: 500, headers: ERROR_HEADERS, body: INTERNAL_ERROR };
    }
    const body = reply.body;
    if (typeof body === 'string') {
      const bytes = Buffer.from(body);
      res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(bytes.byteLength) });
      res.end(req.method === 'HEAD' ? undefined : bytes);
      return;
    }
    res.writeHead(reply.status, reply.headers);
    if (body === undefined || req.method === 'HEAD') res.end();
    else if (body.count === 1) res.end(chunkReader(body)());
    else {
      res.cork();
      const next = chunkReader(body);
      for (let chunk = next(); chunk !== undefined; chunk = next()) res.write(chunk);
      res.end();
    }
  };
}

const defaultLog = (err: unknown) => console.error('GET /api/chronicle failed:', err);
const ERROR_HEADERS = { ...COMMON_HEADERS, ...ERROR_CACHE_HEADERS, ...JSON_TYPE };
const INTERNAL_ERROR = JSON.stringify({ message: 'サーバー内部でエラーが起きました。時間をおいてもう一度お試しください。' });

export function internalError(R: ResponseClass): Response {
  return new R(INTERNAL_ERROR, { status: 500, headers: ERROR_HEADERS });
}

function createResponder(input: BuiltDataset | Served, options: HandlerOptions, layout: Layout = FOR_STREAMS): Responder {
  const p = prepare(input);
  const maxSize = options.cacheBytes ?? 64 * 1024 * 1024;
  const cache = maxSize > 0 ? new LRUCache<string, Answer>({ maxSize, sizeCalculation: answerBytes }) : undefined;
  // Feeds keep their own, smaller cache: they never evict API answers.
  const feedCache =
    maxSize > 0 ? new LRUCache<string, Answer>({ maxSize: Math.ceil(maxSize / 8), sizeCalculation: answerBytes }) : undefined;
  return (method, pathname, search, ifNoneMatch) => handle(p, cache, feedCache, layout, method, pathname, search, ifNoneMatch);
}

/**
 * What one cached answer holds, in bytes: the bytes allocated for its body (large runs of records
 * are views of the prepared bytes and cost a chunk's bookkeeping only), its key (a query string,
 * kept by the cache as a string: up to two bytes a character), its two header objects and the
 * object around them. Counting only the body let 10k distinct long queries hold three times the
 * intended memory.
 */
export function answerBytes(answer: Answer, key: string): number {
  let headers = 0;
  for (const h of [answer.ok, answer.notModified]) for (const [k, v] of Object.entries(h)) headers += 2 * (k.length + v.length) + 64;
  const body = answer.body.owned + CHUNK_OVERHEAD * answer.body.count + SEGMENT_OVERHEAD * answer.body.segments.length;
  return body + 2 * key.length + headers + 2 * answer.etag.length + ENTRY_OVERHEAD;
}

/** The cache's own bookkeeping per entry and the objects' headers, measured with V8 heap snapshots. */
const ENTRY_OVERHEAD = 512;
/** A chunk's two numbers in the selection's list of runs, which a kept answer keeps alive. */
const CHUNK_OVERHEAD = 16;
/** A segment: a Uint8Array view or a stretch of runs, and its slot in the list. */
const SEGMENT_OVERHEAD = 96;

type Cache = LRUCache<string, Answer> | undefined;

function handle(
  p: Prepared,
  cache: Cache,
  feedCache: Cache,
  layout: Layout,
  method: string,
  pathname: string,
  search: string,
  ifNoneMatch: string | null | undefined,
): Reply {
  const error = (status: number, message: string, extra?: Record<string, string>): Reply => ({
    status,
    headers: extra ? { ...ERROR_HEADERS, ...extra } : ERROR_HEADERS,
    body: JSON.stringify({ message }),
  });
  const feed = pathname === API_PATH ? undefined : FEED_PATHS[pathname];
  if (pathname !== API_PATH && !feed) {
    return error(404, `${clipPath(pathname)} というパスはありません。データは GET ${API_PATH} で取得できます。`);
  }
  if (method === 'OPTIONS') return { status: 204, headers: PREFLIGHT };
  if (method !== 'GET' && method !== 'HEAD') {
    return error(405, `${method} は使えません。このAPIは読み取り専用で、使えるメソッドは ${ALLOWED_METHODS} です。`, {
      Allow: ALLOWED_METHODS,
    });
  }
  if (feed) return serveFeed(p, feed, search, ifNoneMatch, feedCache, error);
  let answer = cache?.get(search);
  if (!answer) {
    const parsed = parseQuery(search, p.rules);
    if (!parsed.ok) return error(400, parsed.message);
    const etag = `"${p.header.version}-${digest(parsed.query.normalized)}"`;
    const notModified = { ...SUCCESS_HEADERS, ETag: etag };
    const deferred = p.deferred();
    let body = render(p, parsed.query, layout);
    // An answer gathered in place while its column waits for a second query to build its grouped
    // copy is not kept: cached, it would be sent scattered for good, and the copy never built.
    const keep = cache !== undefined && p.deferred() === deferred;
    // Kept for a stream, its short runs are copied together once, so that repeats read few chunks.
    if (keep && layout === FOR_STREAMS) body = forKeeping(body);
    // Stated, not left to the platform: a streamed body would otherwise go out chunked, unsized.
    const ok = { ...notModified, 'Content-Type': JSON_TYPE['Content-Type'], 'Content-Length': String(body.length) };
    answer = { etag, body, notModified, ok };
    if (keep) cache.set(search, answer);
  }
  if (matches(ifNoneMatch, answer.etag)) return { status: 304, headers: answer.notModified };
  return { status: 200, headers: answer.ok, body: answer.body };
}

const PREFLIGHT = { ...COMMON_HEADERS, ...PREFLIGHT_HEADERS };
/** Merged once: spreading the constant header objects per answer cost more than selecting its records. */
const SUCCESS_HEADERS = { ...COMMON_HEADERS, ...CACHE_HEADERS };

/** A feed: the API's query rules and selection, then Atom or JSON Feed, with the API's headers. */
function serveFeed(
  p: Prepared,
  format: FeedFormat,
  search: string,
  ifNoneMatch: string | null | undefined,
  cache: Cache,
  error: (status: number, message: string) => Reply,
): Reply {
  const key = `${format}?${search}`;
  let answer = cache?.get(key);
  if (!answer) {
    const parsed = parseQuery(search, p.rules);
    if (!parsed.ok) return error(400, parsed.message);
    if (parsed.query.include) return error(400, FEED_INCLUDE_MESSAGE);
    const etag = `"${p.header.version}-${format}-${digest(parsed.query.normalized)}"`;
    const notModified = { ...SUCCESS_HEADERS, ETag: etag };
    const bytes = Buffer.from(renderFeed(p, parsed.query, format)) as Uint8Array<ArrayBuffer>;
    const body = bodyOfChunks([bytes], bytes.byteLength);
    const ok = { ...notModified, 'Content-Type': FEED_TYPES[format], 'Content-Length': String(bytes.byteLength) };
    answer = { etag, body, notModified, ok };
    cache?.set(key, answer);
  }
  if (matches(ifNoneMatch, answer.etag)) return { status: 304, headers: answer.notModified };
  return { status: 200, headers: answer.ok, body: answer.body };
}

/**
 * The standard Response copies a byte-array body when it is constructed; a stream's chunks are
 * passed on as they are. Above this size the copy costs more than the stream, and a large copy
 * per request is garbage the collector must then reclaim.
 */
export const STREAM_FROM_BYTES = ONE_BUFFER_BELOW;

function bodyOf(body: Body | string, R: ResponseClass): BodyInit {
  if (typeof body === 'string') return body;
  if (body.count === 1 && (R !== Response || body.length < STREAM_FROM_BYTES)) return chunkReader(body)()!;
  return streamOf(body);
}

/**
 * A default (not byte) stream of the body's chunks: its chunks are never transferred, so the
 * prepared bytes stay whole. Chunks go in a batch at a time, as the reader asks, each made a view
 * only then: a view lives until it is read, not for as long as the whole answer takes. Each read
 * takes the head off the stream's queue, and a queue holding every chunk of a scattered answer
 * made reading it quadratic (23,717 views: 95–160 ms enqueued at once, 13–19 ms in batches).
 */
export function streamOf(body: Body): ReadableStream<Uint8Array> {
  const next = chunkReader(body);
  const handOn = (c: ReadableStreamDefaultController<Uint8Array>) => {
    for (let i = 0; i < CHUNKS_PER_PULL; i++) {
      const chunk = next();
      if (chunk === undefined) return c.close();
      c.enqueue(chunk);
    }
  };
  return new ReadableStream<Uint8Array>({ start: handOn, pull: handOn }, { highWaterMark: 0 });
}

/**
 * Chunks handed to the stream at a time: every answer at ×1 in one go, as before; a queue this
 * long still takes its head off cheaply (23,717 views in batches of 64–4,096: 13–19 ms).
 */
export const CHUNKS_PER_PULL = 1024;

/** The response body: meta (with counts of the returned kinds), labels, then the kinds in order. */
export function render(p: Prepared, q: Query, layout: Layout = FOR_STREAMS): Body {
  return assemble(p, selectIndexed(p, q), layout);
}

function digest(s: string): string {
  return hash('sha256', s, 'base64url').slice(0, 16);
}

/** If-None-Match uses weak comparison (RFC 9110 §13.1.2): `W/` prefixes are ignored. */
function matches(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

function clipPath(path: string): string {
  return path.length > 80 ? `${path.slice(0, 80)}…` : path;
}
