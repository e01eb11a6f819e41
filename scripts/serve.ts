// `npm start`: the API locally, offline, as Netlify serves it: the function's handler over the
// dataset `npm run build` baked in, on the function's paths, and public/ with netlify.toml's static
// header rules. The function's answers are written straight to Node's response: the same status,
// headers and bytes the Netlify Function returns, without a Request or Response in between.
import { fileURLToPath } from 'node:url';
import served from '#served';
import { config } from '../functions/chronicle/chronicle.js';
import { createNodeHandler } from '../functions/chronicle/handler.js';
import { startServer } from './server.js';

const port = Number(process.env.PORT ?? 8888);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`PORT=${process.env.PORT} はポート番号ではありません\n`);
  process.exit(2);
}

const server = await startServer({
  handle: createNodeHandler(served),
  functionPaths: config.path,
  root: fileURLToPath(new URL('..', import.meta.url)),
  port,
  hostname: process.env.HOST ?? '127.0.0.1',
});
process.stdout.write(
  `Onchain Finance Trends API（プロファイル ${served.profile}、asOf ${served.meta.asOf}）\n  ${server.url}api/chronicle\n  エクスプローラー: ${server.url}\n  止めるには Ctrl+C\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void server.close(true).then(() => process.exit(0));
  });
}
