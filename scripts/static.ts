import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';

// The static half of `npm start`: files from public/, read whole (they are small), so that a
// response is a plain byte body the server writes once, whatever the client accepts.

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.ndjson': 'application/x-ndjson',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
};

export interface StaticFile {
  body: Buffer;
  type: string;
}

/** The file public/ has for a URL path (a directory means its index.html), or undefined. */
export async function readStatic(publicDir: string, pathname: string): Promise<StaticFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.split('/').some((s) => s === '..')) return undefined;
  const root = await realpath(publicDir).catch(() => undefined);
  if (!root) return undefined;
  let path = join(root, decoded);
  try {
    if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
    // Resolved, so that a link inside public/ cannot serve a file from outside it.
    const real = await realpath(path);
    if (!real.startsWith(root + sep) || !(await stat(real)).isFile()) return undefined;
    return { body: await readFile(real), type: TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}
