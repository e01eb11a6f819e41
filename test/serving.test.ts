import { spawn, type ChildProcess } from 'node:child_process';
import { access, cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { BuiltDataset, Profile } from '../functions/chronicle/dataset.js';
import { createHandler } from '../functions/chronicle/handler.js';
import { STATIC_HEADERS } from '../functions/chronicle/headers.js';
import { inject } from 'vitest';
import { ROOT } from './helpers.js';
import { parse as parseToml } from 'smol-toml';
import { loadNetlifyDev, loadZipFunction } from './netlify-dev.js';

// These tests run what users and Netlify run: `npm start` over real HTTP, and the function through
// Netlify's own local emulation, in the project copy the test setup made (see global-setup.ts):
// `npm start` rebuilds .build/ there, never in the checkout. Nothing else uses that .build/
// (vitest runs one file's tests in order).
const WORKSPACE = inject('workspace');

const REQUESTS: [string, RequestInit?][] = [
  ['/api/chronicle'],
  ['/api/chronicle?topic=deposit&region=JP'],
  ['/api/chronicle?include=players,events&player=Bank%20of%20Japan&from=2020'],
  ['/api/chronicle?topic=nope'],
  ['/api/other'],
  ['/api/chronicle', { method: 'HEAD' }],
  ['/api/chronicle', { method: 'OPTIONS', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' } }],
  ['/api/chronicle', { method: 'POST', body: '{}' }],
];

/** Headers that transports add or drop (framing, dates, platform tracing), not the function's. */
const TRANSPORT = /^(date|connection|keep-alive|transfer-encoding|content-length|x-nf-.*)$/;
const headersOf = (res: Response) => Object.fromEntries([...res.headers].filter(([k]) => !TRANSPORT.test(k)));

async function expected(profile: Profile, path: string, init?: RequestInit) {
  const dataset = JSON.parse(await readFile(join(WORKSPACE, '.build', `${profile}.json`), 'utf8')) as BuiltDataset;
  const res = createHandler(dataset)(new Request(`http://localhost${path}`, init));
  return { status: res.status, headers: headersOf(res), body: await res.text() };
}

async function startServer(profile: Profile): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: WORKSPACE,
    env: { ...process.env, PORT: '0', CHRONICLE_PROFILE: profile },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)\/api\/chronicle/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${out}\n${err}`)));
  });
  return { url, child };
}

async function rawRequest(url: string, bytes: Buffer): Promise<string> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  // Written, not ended: a client that half-closes may see the server drop an answer still being made.
  socket.write(bytes);
  let out = '';
  for await (const chunk of socket) out += (chunk as Buffer).toString('utf8');
  return out;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

describe('npm start', () => {
  for (const profile of ['B', 'A'] as const) {
    it(`serves Profile ${profile} on 127.0.0.1 exactly as the function answers`, async () => {
      const { url, child } = await startServer(profile);
      try {
        for (const [path, init] of REQUESTS) {
          const res = await fetch(`${url}${path}`, init);
          const want = await expected(profile, path, init);
          expect({ status: res.status, headers: headersOf(res), body: await res.text() }, `${init?.method ?? 'GET'} ${path}`).toEqual(want);
        }
        const etag = (await fetch(`${url}/api/chronicle?region=EU`)).headers.get('ETag')!;
        expect((await fetch(`${url}/api/chronicle?region=EU`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
        // Raw bytes that are not URL characters: Node refuses them before the function; the
        // server still answers in the API's error shape.
        const raw = await rawRequest(
          url,
          Buffer.concat([Buffer.from('GET /api/chronicle?topic='), Buffer.from([0xff, 0xfe]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]),
        );
        expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
        expect(raw).toContain('Access-Control-Allow-Origin: *');
        expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).message).toContain('%XX');
        // A static file of 14 KB and more to a client that accepts no encoding once killed the
        // server; it must come whole, and the server must answer the next request.
        const schema = await rawRequest(
          url,
          Buffer.from(`GET /schemas/response-${profile}.schema.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
        );
        expect(schema.split('\r\n')[0]).toMatch(/^HTTP\/1.1 200\b/);
        const schemaBody = schema.slice(schema.indexOf('\r\n\r\n') + 4);
        expect(Buffer.byteLength(schemaBody)).toBeGreaterThan(14_000);
        expect(JSON.parse(schemaBody).$id).toContain(`response-${profile}`);
        expect((await fetch(`${url}/api/chronicle?region=EU`)).status).toBe(200);
        // What Node's parser refuses gets production's status, in the API's error shape.
        const refused = async (request: string) => {
          const raw = await rawRequest(url, Buffer.from(request));
          return {
            line: raw.split('\r\n')[0],
            head: raw.slice(0, raw.indexOf('\r\n\r\n')),
            body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)),
          };
        };
        const longUrl = await refused(`GET /api/chronicle?topic=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
        expect(longUrl.line).toBe('HTTP/1.1 414 URI Too Long');
        const bigHeader = await refused(`GET /api/chronicle HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
        expect(bigHeader.line).toBe('HTTP/1.1 431 Request Header Fields Too Large');
        const unknown = await refused('BREW /api/chronicle HTTP/1.1\r\nHost: x\r\n\r\n');
        expect(unknown.line).toBe('HTTP/1.1 501 Not Implemented');
        expect(unknown.head).toContain('Allow: GET, HEAD, OPTIONS');
        for (const r of [longUrl, bigHeader, unknown]) {
          expect(r.head).toContain('Access-Control-Allow-Origin: *');
          expect(typeof r.body.message).toBe('string');
        }
        const page = await fetch(`${url}/`);
        expect(page.status).toBe(200);
        for (const [k, v] of Object.entries(STATIC_HEADERS)) expect(page.headers.get(k), k).toBe(v);
        expect(await page.text()).toContain(profile === 'A' ? '拡張版' : '基本版');
      } finally {
        await stop(child);
      }
    }, 90_000);
  }
});

async function emulate(projectRoot: string) {
  const NetlifyDev = await loadNetlifyDev();
  const dev = new NetlifyDev({
    projectRoot,
    serverAddress: 'http://127.0.0.1:9',
    edgeFunctions: { enabled: false },
    images: { enabled: false },
    blobs: { enabled: false },
    database: { enabled: false },
  });
  await dev.start();
  return dev;
}

async function projectCopy(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'chronicle-netlify-'));
  for (const name of ['functions', '.build', 'public', 'package.json'])
    await cp(join(WORKSPACE, name), join(dir, name), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const toml = await readFile(join(ROOT, 'netlify.toml'), 'utf8');
  await writeFile(join(dir, 'netlify.toml'), toml.slice(0, toml.indexOf('[[headers]]')));
  return dir;
}

describe('the function under Netlify’s emulation', () => {
  it('answers an internal error as JSON with CORS, with no stack trace or path', async () => {
    const dir = await projectCopy();
    try {
      // A dataset the handler cannot prepare: every request fails inside the function.
      await writeFile(join(dir, '.build', 'served.js'), 'export default { kinds: ["events"], events: null, players: null };\n');
      const dev = await emulate(dir);
      try {
        const res = await dev.handle(new Request('http://localhost/api/chronicle'));
        expect(res!.status).toBe(500);
        expect(res!.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
        expect(res!.headers.get('Access-Control-Allow-Origin')).toBe('*');
        const text = await res!.text();
        expect(Object.keys(JSON.parse(text))).toEqual(['message']);
        expect(text).not.toMatch(/\/|at |Error/);
      } finally {
        await dev.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('sets its own CORS and cache headers, with netlify.toml header rules removed', async () => {
    const dir = await projectCopy();
    try {
      expect(await readFile(join(dir, 'netlify.toml'), 'utf8')).not.toContain('Access-Control-Allow-Origin');

      const dev = await emulate(dir);
      try {
        const served = JSON.parse(await readFile(join(WORKSPACE, '.build', 'A.json'), 'utf8')) as BuiltDataset;
        expect((await readFile(join(dir, '.build/served.js'), 'utf8')).includes(served.version)).toBe(true);
        for (const [path, init] of REQUESTS.slice(0, 5)) {
          const res = await dev.handle(new Request(`http://localhost${path}`, init));
          const want = await expected('A', path, init);
          expect(res, path).toBeDefined();
          expect({ status: res!.status, headers: headersOf(res!), body: await res!.text() }, path).toEqual(want);
          expect(res!.headers.get('Access-Control-Allow-Origin')).toBe('*');
        }
        const ok = await dev.handle(new Request('http://localhost/api/chronicle?topic=cbdc'));
        expect(ok!.headers.get('Cache-Control')).toBe('public, max-age=3600');
        expect(ok!.headers.get('Netlify-CDN-Cache-Control')).toContain('max-age=3600');
        // The static page, by contrast, lost its CORS header with the rules: the emulation applies
        // netlify.toml to static files only, as production does.
        const page = await dev.handle(new Request('http://localhost/'));
        expect(page!.status).toBe(200);
        expect(page!.headers.get('Access-Control-Allow-Origin')).toBeNull();
      } finally {
        await dev.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('ships the image with the function: packaged as a deploy packages it, it answers from its own folder', async () => {
    // Netlify's emulation finds the image in the project it builds inside; a deploy has only what
    // the packager puts in the function's archive. Package it (netlify.toml's [functions] settings,
    // as the build passes them), into a folder outside the project, and call the packaged bundle.
    const dir = await projectCopy();
    const out = await mkdtemp(join(tmpdir(), 'chronicle-package-'));
    try {
      const toml = parseToml(await readFile(join(ROOT, 'netlify.toml'), 'utf8')) as {
        functions: { directory: string; included_files: string[] };
      };
      const zipFunction = await loadZipFunction();
      const packaged = await zipFunction(join(dir, toml.functions.directory, 'chronicle'), out, {
        archiveFormat: 'none',
        basePath: dir,
        config: { '*': { includedFiles: toml.functions.included_files, includedFilesBasePath: dir, nodeBundler: 'esbuild_zisi' } },
        featureFlags: { zisi_functions_api_v2: true, zisi_pure_esm: true, zisi_pure_esm_mjs: true },
      });
      expect(packaged?.includedFiles).toEqual([join(dir, '.build', 'served.bin')]);
      await access(join(packaged!.path, '.build', 'served.bin'));
      const bundle = join(packaged!.path, 'functions', 'chronicle', 'chronicle.mjs');
      const { default: fn } = (await import(pathToFileURL(bundle).href)) as { default: (req: Request) => Promise<Response> };
      for (const [path, init] of REQUESTS.slice(0, 5)) {
        const res = await fn(new Request(`http://localhost${path}`, init));
        expect({ status: res.status, headers: headersOf(res), body: await res.text() }, path).toEqual(await expected('A', path, init));
      }
    } finally {
      await rm(out, { recursive: true, force: true });
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
