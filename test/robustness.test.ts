import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuiltDataset, Profile } from '../functions/chronicle/dataset.js';
import { createHandler, type Handler } from '../functions/chronicle/handler.js';
import { PARAMS } from '../functions/chronicle/query.js';
import { parseYaml } from '../pipeline/loaders/yaml.js';
import { allJsonSchemas } from '../pipeline/schemas.js';
import { loadVocabulary } from '../pipeline/vocabulary.js';
import { CONTENT, fixtureBuild } from './helpers.js';

// `npm run fuzz` runs this file with FUZZ_RUNS=100000; `npm test` with a few hundred.
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

let data: Record<Profile, BuiltDataset>;
let api: Record<Profile, Handler>;
let valid: Record<Profile, (body: unknown) => boolean>;

beforeAll(async () => {
  data = await fixtureBuild();
  api = { A: createHandler(data.A), B: createHandler(data.B) };
  const v = loadVocabulary(parseYaml('vocabulary.yaml', readFileSync(join(CONTENT, 'vocabulary.yaml'), 'utf8'))).vocabulary!;
  const schemas = allJsonSchemas(v);
  const ajv = new Ajv2020({ strict: true });
  valid = { A: ajv.compile(schemas['response-A']!), B: ajv.compile(schemas['response-B']!) };
});

const HOSTILE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  'TOPIC',
  'topic ',
  'include[]',
  'a.b',
  '%74opic',
];
const HOSTILE_VALUES = [
  '__proto__',
  'constructor',
  ',',
  ',,,',
  ' ',
  '%',
  '%%',
  '%zz',
  '%E3%81',
  '%FF',
  '\u0000',
  '🙂',
  'ｄｅｐｏｓｉｔ',
  'true,TRUE',
  '2024-00',
  '9999-12-31',
];

function pieces(d: BuiltDataset) {
  const good = [
    ...d.kinds,
    ...d.filters.topic,
    ...d.filters.region,
    ...d.filters.status,
    ...d.players.map((p) => p.id),
    '2020',
    '2024-05',
    '2025-01-30',
    'true',
    'false',
  ];
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...PARAMS) },
    fc.constantFrom(...HOSTILE_NAMES),
    fc.string({ maxLength: 12 }),
  );
  const value = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...good) },
    fc.constantFrom(...HOSTILE_VALUES),
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'grapheme', maxLength: 10 }),
    fc.array(fc.constantFrom(...good, ''), { maxLength: 6 }).map((xs) => xs.join(',')),
    fc.integer({ min: 1, max: 3000 }).map((n) => ','.repeat(n)),
  );
  const encode = fc.constantFrom<(s: string) => string>(
    (s) => encodeURIComponent(s),
    (s) => s,
    (s) => s.replace(/ /g, '+'),
  );
  return fc
    .array(fc.tuple(name, value, encode, fc.boolean()), { maxLength: 6 })
    .map((xs) => xs.map(([n, v, enc, bare]) => (bare && v === '' ? enc(n) : `${enc(n)}=${enc(v)}`)).join('&'));
}

const METHODS = ['GET', 'GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH', 'PROPFIND'];

describe.each(['A', 'B'] as const)('Profile %s under arbitrary requests', (p) => {
  it('never fails: 200 bodies match the response schema, errors name what is wrong', async () => {
    await fc.assert(
      fc.asyncProperty(
        pieces(data[p]),
        fc.constantFrom(...METHODS),
        fc.constantFrom('/api/chronicle', '/api/chronicle', '/api/chronicle', '/api/x', '/api/chronicle/', '/API/chronicle'),
        async (query, method, path) => {
          let req: Request;
          try {
            req = new Request(`https://api.test${path}?${query}`, { method });
          } catch {
            return; // not a request any client can send
          }
          const res = api[p](req);
          expect(res.status).toBeLessThan(500);
          expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
          const text = await res.text();
          if (res.status === 200) {
            if (method === 'HEAD') expect(text).toBe('');
            else expect(valid[p](JSON.parse(text))).toBe(true);
          } else if (res.status === 204) {
            expect(method).toBe('OPTIONS');
          } else {
            const body = JSON.parse(text) as { message: string };
            expect(Object.keys(body)).toEqual(['message']);
            expect(body.message.length).toBeGreaterThan(0);
            expect(body.message.length).toBeLessThan(2000);
            if (res.status === 400) {
              // The message quotes a parameter name (decoded, or raw when it cannot be decoded,
              // `""` when empty) or the whole piece whose encoding is broken.
              const search = new URL(req.url).search.slice(1);
              const named = search.split('&').some((piece) => {
                const n = piece.split('=')[0]!;
                if (body.message.includes(piece.slice(0, 60)) || (n === '' && body.message.includes('""'))) return true;
                if (n !== '' && body.message.includes(n.slice(0, 60))) return true;
                try {
                  const decoded = decodeURIComponent(n.replace(/\+/g, ' '));
                  return decoded !== '' && body.message.includes(decoded.slice(0, 60));
                } catch {
                  return false;
                }
              });
              expect(named || body.message.includes('長すぎます'), body.message).toBe(true);
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, 600_000);
});

describe('hostile requests', () => {
  const get = (q: string) => api.A(new Request(`https://api.test/api/chronicle?${q}`));
  const timed = async (q: string) => {
    const t = performance.now();
    const res = get(q);
    const body = (await res.json()) as { message: string };
    return { status: res.status, message: body.message, ms: performance.now() - t };
  };

  it('refuses a very long query string, briefly', async () => {
    const r = await timed(`topic=${'a'.repeat(100_000)}`);
    expect(r.status).toBe(400);
    expect(r.message).toContain('長すぎます');
    // A generous ceiling: it guards against work that grows with the input, not speed.
    expect(r.ms).toBeLessThan(1000);
  });

  it('shortens a long value in the message instead of echoing it', async () => {
    const r = await timed(`player=${'x'.repeat(5000)}`);
    expect(r.status).toBe(400);
    expect(r.message).toContain('…');
    expect(r.message.length).toBeLessThan(400);
  });

  it('handles thousands of commas and thousands of values', async () => {
    expect((await timed(`topic=${','.repeat(8000)}`)).status).toBe(400);
    const many = Array.from({ length: 1500 }, (_, i) => (i % 2 ? 'cbdc' : 'rwa')).join(',');
    const r = get(`topic=${many}`);
    expect(r.status).toBe(200);
  });

  it('treats prototype names as unknown parameters and values as invalid', async () => {
    for (const q of ['__proto__=1', 'constructor=x', 'toString=', 'topic=__proto__', 'player=constructor', 'include=hasOwnProperty']) {
      const r = await timed(q);
      expect(r.status, q).toBe(400);
    }
    expect((await timed('__proto__[topic]=cbdc')).message).toContain('__proto__[topic]');
  });

  it('refuses broken percent-encoding and invalid UTF-8', async () => {
    for (const q of ['topic=%', 'topic=%2', 'topic=%G0', '%zz=1', 'player=%C3%28', 'player=%ED%A0%80', 'topic=%F0%9F%98']) {
      const r = await timed(q);
      expect(r.status, q).toBe(400);
      expect(r.message, q).toContain('パーセントエンコード');
    }
  });
});
