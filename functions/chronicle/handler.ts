import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { BuiltDataset } from './dataset.js';
import { ALLOWED_METHODS, CACHE_HEADERS, COMMON_HEADERS, ERROR_CACHE_HEADERS, JSON_TYPE, PREFLIGHT_HEADERS } from './headers.js';
import { FEED_INCLUDE_MESSAGE, FEED_PATHS, FEED_TYPES, renderFeed, type FeedFormat } from './feed.js';
import { assemble, prepare, type Prepared } from './prepare.js';
import { parseQuery, type Query } from './query.js';
import { select } from './select.js';

export const API_PATH = '/api/chronicle';

export type Handler = (req: Request) => Response;

type ResponseClass = new (body?: BodyInit | null, init?: ResponseInit) => Response;

export interface HandlerOptions {
  /** Bytes of answers kept for repeated queries; 0 turns the cache off. */
  cacheBytes?: number;
  /**
   * The Response class to answer with. Netlify takes the standard one; a Node server can pass a
   * faster drop-in (srvx's FastResponse) that it writes out without a stream round-trip.
   */
  Response?: ResponseClass;
  /** Where an internal error's detail goes; the client only ever sees a generic 500. */
  log?: (err: unknown) => void;
}

/** A successful answer, encoded once, with its headers ready for 200 and for 304. */
export interface Answer {
  etag: string;
  body: Uint8Array<ArrayBuffer>;
  ok: Record<string, string>;
  notModified: Record<string, string>;
}

/**
 * GET /api/chronicle over one built dataset. The dataset is prepared once, here, not per request.
 * The dataset never changes within an instance, so an answer depends on the query string alone:
 * answers are kept, encoded, in a byte-bounded LRU keyed by the raw query string, and a repeated
 * query costs a lookup.
 */
export function createHandler(dataset: BuiltDataset, options: HandlerOptions = {}): Handler {
  const p = prepare(dataset);
  const maxSize = options.cacheBytes ?? 64 * 1024 * 1024;
  const cache = maxSize > 0 ? new LRUCache<string, Answer>({ maxSize, sizeCalculation: answerBytes }) : undefined;
  // Feeds keep their own, smaller cache: they never evict API answers.
  const feedCache =
    maxSize > 0 ? new LRUCache<string, Answer>({ maxSize: Math.ceil(maxSize / 8), sizeCalculation: answerBytes }) : undefined;
  const R = options.Response ?? Response;
  const log = options.log ?? ((err: unknown) => console.error('GET /api/chronicle failed:', err));
  return (req) => {
    try {
      return handle(p, req, cache, feedCache, R);
    } catch (err) {
      // The detail (stack, paths) goes to the log only; the client gets the API's error shape.
      log(err);
      return internalError(R);
    }
  };
}

export function internalError(R: ResponseClass): Response {
  return new R(JSON.stringify({ message: 'サーバー内部でエラーが起きました。時間をおいてもう一度お試しください。' }), {
    status: 500,
    headers: { ...COMMON_HEADERS, ...ERROR_CACHE_HEADERS, ...JSON_TYPE },
  });
}

/**
 * What one cached answer holds, in bytes: its body, its key (a query string, kept by the cache as
 * a string: up to two bytes a character), its two header objects and the object around them.
 * Counting only the body let 10k distinct long queries hold three times the intended memory.
 */
export function answerBytes(answer: Answer, key: string): number {
  let headers = 0;
  for (const h of [answer.ok, answer.notModified]) for (const [k, v] of Object.entries(h)) headers += 2 * (k.length + v.length) + 64;
  return answer.body.byteLength + 2 * key.length + headers + 2 * answer.etag.length + ENTRY_OVERHEAD;
}

/** The cache's own bookkeeping per entry and the objects' headers, measured with V8 heap snapshots. */
const ENTRY_OVERHEAD = 512;

type Cache = LRUCache<string, Answer> | undefined;

function handle(p: Prepared, req: Request, cache: Cache, feedCache: Cache, R: ResponseClass): Response {
  const error = (status: number, message: string, extra: Record<string, string> = {}) =>
    new R(JSON.stringify({ message }), { status, headers: { ...COMMON_HEADERS, ...ERROR_CACHE_HEADERS, ...JSON_TYPE, ...extra } });
  const url = new URL(req.url);
  const feed = url.pathname === API_PATH ? undefined : FEED_PATHS[url.pathname];
  if (url.pathname !== API_PATH && !feed) {
    return error(404, `${clipPath(url.pathname)} というパスはありません。データは GET ${API_PATH} で取得できます。`);
  }
  if (req.method === 'OPTIONS') {
    return new R(null, { status: 204, headers: { ...COMMON_HEADERS, ...PREFLIGHT_HEADERS } });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return error(405, `${req.method} は使えません。このAPIは読み取り専用で、使えるメソッドは ${ALLOWED_METHODS} です。`, {
      Allow: ALLOWED_METHODS,
    });
  }
  const search = url.search.slice(1);
  if (feed) return serveFeed(p, req, feed, search, feedCache, R, error);
  let answer = cache?.get(search);
  if (!answer) {
    const parsed = parseQuery(search, p.rules);
    if (!parsed.ok) return error(400, parsed.message);
    const etag = `"${p.dataset.version}-${digest(parsed.query.normalized)}"`;
    const notModified = { ...COMMON_HEADERS, ...CACHE_HEADERS, ETag: etag };
    const body = render(p, parsed.query);
    // Stated, not left to the platform: a streamed body would otherwise go out chunked, unsized.
    const ok = { ...notModified, ...JSON_TYPE, 'Content-Length': String(body.byteLength) };
    answer = { etag, body, notModified, ok };
    cache?.set(search, answer);
  }
  if (matches(req.headers.get('If-None-Match'), answer.etag)) return new R(null, { status: 304, headers: answer.notModified });
  return new R(req.method === 'HEAD' ? null : bodyOf(answer.body, R), { status: 200, headers: answer.ok });
}

/** A feed: the API's query rules and selection, then Atom or JSON Feed, with the API's headers. */
function serveFeed(
  p: Prepared,
  req: Request,
  format: FeedFormat,
  search: string,
  cache: Cache,
  R: ResponseClass,
  error: (status: number, message: string) => Response,
): Response {
  const key = `${format}?${search}`;
  let answer = cache?.get(key);
  if (!answer) {
    const parsed = parseQuery(search, p.rules);
    if (!parsed.ok) return error(400, parsed.message);
    if (parsed.query.include) return error(400, FEED_INCLUDE_MESSAGE);
    const etag = `"${p.dataset.version}-${format}-${digest(parsed.query.normalized)}"`;
    const notModified = { ...COMMON_HEADERS, ...CACHE_HEADERS, ETag: etag };
    const body = Buffer.from(renderFeed(p, parsed.query, format)) as Uint8Array<ArrayBuffer>;
    const ok = { ...notModified, 'Content-Type': FEED_TYPES[format], 'Content-Length': String(body.byteLength) };
    answer = { etag, body, notModified, ok };
    cache?.set(key, answer);
  }
  if (matches(req.headers.get('If-None-Match'), answer.etag)) return new R(null, { status: 304, headers: answer.notModified });
  return new R(req.method === 'HEAD' ? null : bodyOf(answer.body, R), { status: 200, headers: answer.ok });
}

/**
 * The standard Response copies a byte-array body when it is constructed; a stream's chunks are
 * passed on as they are. Above this size the copy costs more than the stream, and a large copy
 * per request is garbage the collector must then reclaim.
 */
export const STREAM_FROM_BYTES = 64 * 1024;

function bodyOf(bytes: Uint8Array<ArrayBuffer>, R: ResponseClass): BodyInit {
  if (R !== Response || bytes.byteLength < STREAM_FROM_BYTES) return bytes;
  // A default (not byte) stream: its chunks are never transferred, so the prepared bytes stay whole.
  return new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
}

/** The response body: meta (with counts of the returned kinds), labels, then the kinds in order. */
export function render(p: Prepared, q: Query): Uint8Array<ArrayBuffer> {
  const chosen = select(p, q);
  // The most requested answer, and the largest: every kind unfiltered is prepared whole.
  if (chosen.size === p.dataset.kinds.length && [...chosen.values()].every((keep) => keep === 'all')) return p.complete;
  return assemble(p, chosen);
}

function digest(s: string): string {
  return createHash('sha256').update(s).digest('base64url').slice(0, 16);
}

/** If-None-Match uses weak comparison (RFC 9110 §13.1.2): `W/` prefixes are ignored. */
function matches(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

function clipPath(path: string): string {
  return path.length > 80 ? `${path.slice(0, 80)}…` : path;
}
