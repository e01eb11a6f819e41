import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { FEED_PATHS } from '../functions/chronicle/feed.js';
import { CACHE_HEADERS, COMMON_HEADERS, STATIC_HEADERS } from '../functions/chronicle/headers.js';
import { API_PATH } from '../functions/chronicle/handler.js';
import { headerRules, pathMatches } from '../scripts/netlify-toml.js';
import { parse } from 'smol-toml';
import { readFileSync } from 'node:fs';
import { ROOT } from './helpers.js';

const toml = join(ROOT, 'netlify.toml');

// The function's paths as its module exports them, read by the test setup after its build.
const config = { path: inject('functionPaths') };

describe('netlify.toml', () => {
  it('gives static files the same header values the function sets', () => {
    const rules = headerRules(toml);
    const all = rules.find((r) => r.for === '/*');
    expect(all?.values).toEqual(STATIC_HEADERS);
    expect(STATIC_HEADERS['Access-Control-Allow-Origin']).toBe(COMMON_HEADERS['Access-Control-Allow-Origin']);
    expect(STATIC_HEADERS['Cache-Control']).toBe(CACHE_HEADERS['Cache-Control']);
  });

  it('builds with npm run build on Node 22, publishing public/ and functions/', () => {
    const t = parse(readFileSync(toml, 'utf8')) as {
      build: { command: string; publish: string; environment: Record<string, string> };
      functions: { directory: string };
    };
    expect(t.build.command).toBe('npm run build');
    expect(t.build.publish).toBe('public');
    expect(t.build.environment.NODE_VERSION).toBe('22');
    expect(['A', 'B']).toContain(t.build.environment.CHRONICLE_PROFILE);
    expect(t.functions.directory).toBe('functions');
  });

  it('routes the API path, and other /api paths for a JSON 404, to the function', () => {
    expect(config.path.some((p) => pathMatches(p, API_PATH))).toBe(true);
    expect(config.path.some((p) => pathMatches(p, '/api/chronicles'))).toBe(true);
    expect(config.path.some((p) => pathMatches(p, '/index.html'))).toBe(false);
    for (const feed of Object.keys(FEED_PATHS))
      expect(
        config.path.some((p) => pathMatches(p, feed)),
        feed,
      ).toBe(true);
    for (const file of ['/openapi.json', '/downloads/A/events.csv', '/robots.txt']) {
      expect(
        config.path.some((p) => pathMatches(p, file)),
        file,
      ).toBe(false);
    }
  });

  it('caches at most one hour, and lets the CDN key on the whole query string', () => {
    for (const v of [CACHE_HEADERS['Cache-Control'], CACHE_HEADERS['Netlify-CDN-Cache-Control']]) {
      const maxAge = Number(/max-age=(\d+)/.exec(v)![1]);
      expect(maxAge).toBeLessThanOrEqual(3600);
      expect(v).not.toMatch(/stale-/);
    }
    // A `Netlify-Vary: query=<known parameters>` would let `?topic=cbdc&topc=x` (a 400) be
    // answered from the cached 200 of `?topic=cbdc`.
    expect(Object.keys(CACHE_HEADERS).map((k) => k.toLowerCase())).not.toContain('netlify-vary');
    expect(Object.keys(CACHE_HEADERS).map((k) => k.toLowerCase())).not.toContain('vary');
  });
});
