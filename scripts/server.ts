import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { ALLOWED_METHODS, COMMON_HEADERS, ERROR_CACHE_HEADERS, JSON_TYPE } from '../functions/chronicle/headers.js';
import { headerRules, pathPattern } from './netlify-toml.js';
import { readStatic } from './static.js';

export interface ServerOptions {
  /**
   * The function, writing its answer straight to Node's response: every request on
   * `functionPaths`, any other method, and any path with no static file.
   */
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  functionPaths: readonly string[];
  /** Repository root: public/ and netlify.toml are read from here. */
  root: string;
  port: number;
  hostname?: string;
}

export interface Server {
  /** `http://host:port/` */
  url: string;
  node: NodeServer;
  /** Stops listening; with `force`, also closes the connections still open. */
  close(force?: boolean): Promise<void>;
}

/**
 * Serves as Netlify does: the function's paths go to the function untouched; other paths are
 * static files from public/ with netlify.toml's header rules, which Netlify applies to static
 * files only, and a path with neither gets public/404.html with status 404. Plain node:http: the
 * function writes its status, headers and bytes to the socket itself, with no Request or Response
 * object in between.
 */
export async function startServer(o: ServerOptions): Promise<Server> {
  const rules = headerRules(join(o.root, 'netlify.toml')).map((r) => ({ ...r, matches: pathPattern(r.for) }));
  const functionPaths = o.functionPaths.map(pathPattern);
  const isFunctionPath = (pathname: string) => functionPaths.some((matches) => matches(pathname));
  const publicDir = join(o.root, 'public');
  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown) => {
    // A local server must never die on a request: log the detail, answer in the API's shape.
    console.error(`${req.method} ${req.url} failed:`, err);
    if (res.headersSent) res.destroy();
    else sendError(res, 500, 'サーバー内部でエラーが起きました。');
  };
  const server = createServer((req, res) => {
    try {
      const { pathname } = new URL(req.url ?? '/', 'http://localhost');
      if (isFunctionPath(pathname) || (req.method !== 'GET' && req.method !== 'HEAD')) return o.handle(req, res);
      (async () => {
        let status = 200;
        let file = await readStatic(publicDir, pathname);
        if (!file) {
          // Netlify answers a path with no file and no function with public/404.html, status 404.
          file = await readStatic(publicDir, '/404.html');
          if (!file) return o.handle(req, res);
          status = 404;
        }
        const headers: Record<string, string> = { 'Content-Type': file.type, 'Content-Length': String(file.body.byteLength) };
        for (const rule of rules) if (rule.matches(pathname)) Object.assign(headers, rule.values);
        res.writeHead(status, headers);
        res.end(req.method === 'HEAD' ? undefined : file.body);
      })().catch((err: unknown) => fail(req, res, err));
    } catch (err) {
      fail(req, res, err);
    }
  });
  server.on('clientError', (err: Error, socket: Socket) => answerUnreadable(err, socket));
  const hostname = o.hostname ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, hostname, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}/`,
    node: server,
    close: (force) =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (force) server.closeAllConnections();
        else server.closeIdleConnections();
      }),
  };
}

function sendError(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ message });
  res.writeHead(status, { ...COMMON_HEADERS, ...ERROR_CACHE_HEADERS, ...JSON_TYPE, 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/** Longest request line (method, target, version) the server reads; past it the answer is 414. */
const MAX_REQUEST_LINE = 8 * 1024;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
};

/**
 * A request Node's parser refuses never reaches the function. Answer it in the API's own error
 * shape and with the status production gives: 414 for an over-long URL, 431 for over-large
 * headers, 501 (with Allow) for a method HTTP does not know, 400 for anything unreadable.
 */
function answerUnreadable(err: Error & { code?: string; rawPacket?: Buffer }, socket: Socket): void {
  if (!socket.writable) return;
  let status = 400;
  let message = 'リクエストを読めません。URL に使えない文字が含まれています。UTF-8 の文字は %XX の形にエンコードしてください。';
  const extra: Record<string, string> = {};
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const lineEnd = err.rawPacket?.indexOf('\r\n') ?? -1;
    if (lineEnd < 0 || lineEnd > MAX_REQUEST_LINE) {
      status = 414;
      message = `URL が長すぎます（上限はおよそ ${MAX_REQUEST_LINE} バイト）。条件を減らしてください。`;
    } else {
      status = 431;
      message = 'リクエストヘッダーが大きすぎます。Cookie など不要なヘッダーを減らしてください。';
    }
  } else if (err.code === 'HPE_INVALID_METHOD') {
    status = 501;
    message = `このメソッドには対応していません。使えるメソッドは ${ALLOWED_METHODS} です。`;
    extra.Allow = ALLOWED_METHODS;
  }
  const body = JSON.stringify({ message });
  const headers = {
    ...COMMON_HEADERS,
    ...ERROR_CACHE_HEADERS,
    ...JSON_TYPE,
    ...extra,
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n${body}`,
  );
}
