// `npm start`: serves the API locally, offline, as Netlify serves it in production: requests on
// the function's paths go to the very same function module with the dataset `npm run build`
// baked in; everything else is a static file from public/ with netlify.toml's header rules, which
// Netlify applies to static files only (never to function answers).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from 'srvx';
import { staticMiddleware } from 'srvx/static';
import chronicle, { config } from '../functions/chronicle/chronicle.js';
import served from '#served';
import { headerRules, pathMatches } from './netlify-toml.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.PORT ?? 8888);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`PORT=${process.env.PORT} はポート番号ではありません\n`);
  process.exit(2);
}
const rules = headerRules(join(root, 'netlify.toml'));
const isFunctionPath = (pathname: string) => config.path.some((p) => pathMatches(p, pathname));

const server = serve({
  port,
  hostname: process.env.HOST ?? '127.0.0.1',
  silent: true,
  gracefulShutdown: false,
  middleware: [
    async (req, next) => {
      const { pathname } = new URL(req.url);
      if (isFunctionPath(pathname)) return chronicle(req);
      const res = await next();
      if (res.status === 404) return res;
      const headers = new Headers(res.headers);
      for (const rule of rules) if (pathMatches(rule.for, pathname)) for (const [k, v] of Object.entries(rule.values)) headers.set(k, v);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    },
    staticMiddleware({ dir: join(root, 'public') }),
  ],
  // Not a function path and no such file: the function's own JSON 404.
  fetch: (req) => chronicle(req),
});

await server.ready();
process.stdout.write(
  `Onchain Finance Trends API（プロファイル ${served.profile}、asOf ${served.meta.asOf}）\n` +
    `  ${server.url}api/chronicle\n  止めるには Ctrl+C\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void server.close(true).then(() => process.exit(0));
  });
}
