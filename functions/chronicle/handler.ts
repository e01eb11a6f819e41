import { createHash } from 'node:crypto';
import type { BuiltDataset } from './dataset.js';
import { ALLOWED_METHODS, CACHE_HEADERS, COMMON_HEADERS, ERROR_CACHE_HEADERS, JSON_TYPE, PREFLIGHT_HEADERS } from './headers.js';
import { prepare, type Prepared } from './prepare.js';
import { parseQuery, type Query } from './query.js';
import { select } from './select.js';

export const API_PATH = '/api/chronicle';

export type Handler = (req: Request) => Response;

/** GET /api/chronicle over one built dataset. The dataset is prepared once, here, not per request. */
export function createHandler(dataset: BuiltDataset): Handler {
  const p = prepare(dataset);
  return (req) => handle(p, req);
}

function handle(p: Prepared, req: Request): Response {
  const url = new URL(req.url);
  if (url.pathname !== API_PATH) {
    return error(404, `${clipPath(url.pathname)} というパスはありません。データは GET ${API_PATH} で取得できます。`);
  }
  if (req.method === 'OPTIONS') {
    return new Response(null, { status: 204, headers: { ...COMMON_HEADERS, ...PREFLIGHT_HEADERS } });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return error(405, `${req.method} は使えません。このAPIは読み取り専用で、使えるメソッドは ${ALLOWED_METHODS} です。`, {
      Allow: ALLOWED_METHODS,
    });
  }
  const search = url.search.slice(1);
  const parsed = parseQuery(search, p.rules);
  if (!parsed.ok) return error(400, parsed.message);

  const etag = `"${p.dataset.version}-${digest(parsed.query.normalized)}"`;
  const headers = { ...COMMON_HEADERS, ...CACHE_HEADERS, ETag: etag };
  if (matches(req.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
  const body = req.method === 'HEAD' ? null : render(p, parsed.query);
  return new Response(body, { status: 200, headers: { ...headers, ...JSON_TYPE } });
}

/** The response body: meta (with counts of the returned kinds), labels, then the kinds in order. */
export function render(p: Prepared, q: Query): string {
  const chosen = select(p, q);
  const counts: string[] = [];
  const parts: string[] = [];
  for (const [kind, keep] of chosen) {
    const all = p.records[kind];
    if (keep === 'all') {
      counts.push(`"${kind}":${all.length}`);
      parts.push(`,"${kind}":${p.whole[kind]}`);
    } else {
      counts.push(`"${kind}":${keep.length}`);
      parts.push(`,"${kind}":[${keep.map((i) => all[i]).join(',')}]`);
    }
  }
  return `{"meta":{${p.metaFields},"counts":{${counts.join(',')}}},${p.labels}${parts.join('')}}`;
}

function error(status: number, message: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ message }), {
    status,
    headers: { ...COMMON_HEADERS, ...ERROR_CACHE_HEADERS, ...JSON_TYPE, ...extra },
  });
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
