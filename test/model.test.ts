import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuiltDataset, Profile } from '../functions/chronicle/dataset.js';
import { createHandler, type Handler } from '../functions/chronicle/handler.js';
import { PARAMS } from '../functions/chronicle/query.js';
import { allJsonSchemas } from '../pipeline/schemas.js';
import { loadVocabulary } from '../pipeline/vocabulary.js';
import { parseYaml } from '../pipeline/loaders/yaml.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT, fixtureBuild } from './helpers.js';
import { oracle } from './oracle.js';

let data: Record<Profile, BuiltDataset>;
let api: Record<Profile, Handler>;
let validate: Record<Profile, (body: unknown) => boolean>;

beforeAll(async () => {
  data = await fixtureBuild();
  api = { A: createHandler(data.A), B: createHandler(data.B) };
  const v = loadVocabulary(parseYaml('vocabulary.yaml', readFileSync(join(CONTENT, 'vocabulary.yaml'), 'utf8'))).vocabulary!;
  const schemas = allJsonSchemas(v);
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  validate = { A: ajv.compile(schemas['response-A']!), B: ajv.compile(schemas['response-B']!) };
});

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** Valid values of each parameter for a profile, drawn from the served dataset itself. */
function pools(d: BuiltDataset): Record<string, string[]> {
  const dates = [...new Set(d.events.map((e) => e.date))];
  const boundaries = [
    ...dates,
    ...dates.map((x) => x.slice(0, 4)),
    ...dates.filter((x) => x.length > 7).map((x) => x.slice(0, 7)),
    '2018',
    '2030-12-31',
  ];
  return {
    include: [...d.kinds],
    topic: d.filters.topic,
    region: d.filters.region,
    status: d.filters.status,
    player: d.players.map((p) => p.id),
    from: boundaries,
    to: boundaries,
    key: ['true', 'false'],
  };
}

/** A random valid query: a few parameters, each with one to three values, some repeated as `a=x&a=y`. */
function validQuery(d: BuiltDataset) {
  const pool = pools(d);
  return fc
    .subarray([...PARAMS], { maxLength: 4 })
    .chain((names) =>
      fc.tuple(
        ...names.map((n) =>
          fc.tuple(fc.constant(n), fc.uniqueArray(fc.constantFrom(...pool[n]!), { minLength: 1, maxLength: 3 }), fc.boolean()),
        ),
      ),
    )
    .map((parts) => {
      const sp = new URLSearchParams();
      for (const [name, vals, repeat] of parts) {
        if (repeat) for (const v of vals) sp.append(name, v);
        else sp.append(name, vals.join(','));
      }
      return sp;
    });
}

const reversed = (sp: URLSearchParams) => {
  const f = sp.getAll('from').flatMap((v) => v.split(','));
  const t = sp.getAll('to').flatMap((v) => v.split(','));
  const cut = (a: string, b: string) => a.slice(0, Math.min(a.length, b.length)) > b.slice(0, Math.min(a.length, b.length));
  return f.length > 0 && t.length > 0 && f.every((x) => t.every((y) => cut(x, y)));
};

describe.each(['A', 'B'] as const)('Profile %s against the contract read literally', (p) => {
  it('answers every random valid combination exactly as the oracle', async () => {
    await fc.assert(
      fc.asyncProperty(validQuery(data[p]).map(String), async (query) => {
        const sp = new URLSearchParams(query);
        const res = api[p](new Request(`https://api.test/api/chronicle?${query}`));
        if (reversed(sp)) {
          expect(res.status).toBe(400);
          return;
        }
        expect(res.status).toBe(200);
        const body = JSON.parse(await res.text());
        expect(body).toEqual(oracle(data[p], sp));
        expect(validate[p](body)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  }, 600_000);
});
