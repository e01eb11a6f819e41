import type { Socket } from 'node:net';
import { join } from 'node:path';
import { COMMON_HEADERS, ERROR_CACHE_HEADERS, JSON_TYPE } from '../functions/chronicle/headers.js';
import { serve, type Server } from 'srvx';
import { staticMiddleware } from 'srvx/static';
import { headerRules, pathPattern } from './netlify-toml.js';

export interface ServerOptions {
  /** The function: answers every request on `functionPaths`, and any path with no static file. */
  fetch: (req: Request) => Response | Promise<Response>;
  functionPaths: readonly string[];
  /** Repository root: public/ and netlify.toml are read from here. */
  root: string;
  port: number;
  hostname?: string;
}

/**
 * Serves as Netlify does: the function's paths go to the function untouched; other paths are
 * static files from public/ with netlify.toml's header rules, which Netlify applies to static
 * files only.
 */
export async function startServer(o: ServerOptions): Promise<Server> {
  const rules = headerRules(join(o.root, 'netlify.toml')).map((r) => ({ ...r, matches: pathPattern(r.for) }));
  const functionPaths = o.functionPaths.map(pathPattern);
  const isFunctionPath = (pathname: string) => functionPaths.some((matches) => matches(pathname));
  const server = serve({
    port: o.port,
    hostname: o.hostname ?? '127.0.0.1',
    silent: true,
    gracefulShutdown: false,
    middleware: [
      async (req, next) => {
        const { pathname } = new URL(req.url);
        if (isFunctionPath(pathname)) return o.fetch(req);
        const res = await next();
        if (res.status === 404) return res;
        const headers = new Headers(res.headers);
        for (const rule of rules) if (rule.matches(pathname)) for (const [k, v] of Object.entries(rule.values)) headers.set(k, v);
        return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
      },
      staticMiddleware({ dir: join(o.root, 'public') }),
    ],
    fetch: (req) => o.fetch(req),
  });
  await server.ready();
  server.node?.server?.on('clientError', (_err: Error, socket: Socket) => answerUnreadable(socket));
  return server;
}

/**
 * A request Node's parser refuses (raw bytes that are not URL characters, a broken request line)
 * never reaches the function; answer it in the API's own error shape rather than Node's bare 400.
 */
function answerUnreadable(socket: Socket): void {
  if (!socket.writable) return;
  const body = JSON.stringify({
    message: 'リクエストを読めません。URL に使えない文字が含まれています。UTF-8 の文字は %XX の形にエンコードしてください。',
  });
  const headers = {
    ...COMMON_HEADERS,
    ...ERROR_CACHE_HEADERS,
    ...JSON_TYPE,
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  socket.end(
    `HTTP/1.1 400 Bad Request\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n${body}`,
  );
}
