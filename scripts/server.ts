import { join } from 'node:path';
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
  return server;
}
