import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuiltDataset, Profile } from '../functions/chronicle/dataset.js';
import { createHandler, type Handler } from '../functions/chronicle/handler.js';
import { runPipeline } from '../pipeline/build.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CONTENT = join(ROOT, 'content');
export const FIXTURE = join(ROOT, 'test/fixtures/content');
export const AS_OF = '2026-01-15';

/**
 * A scratch copy of the fixture records with the real vocabulary, site file and editor schemas,
 * so that fixtures follow the vocabulary as it grows. `overlay` writes (or, with null, deletes)
 * files relative to the content folder.
 */
export async function scratchContent(overlay: Record<string, string | null> = {}, records = FIXTURE): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'chronicle-'));
  const content = join(dir, 'content');
  await cp(records, content, { recursive: true });
  for (const name of ['vocabulary.yaml', 'site.yaml', 'schemas']) await cp(join(CONTENT, name), join(content, name), { recursive: true });
  for (const [name, text] of Object.entries(overlay)) {
    const path = join(content, name);
    if (text === null) await rm(path, { force: true });
    else {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
    }
  }
  return content;
}

export async function removeScratch(contentDir: string): Promise<void> {
  await rm(dirname(contentDir), { recursive: true, force: true });
}

let fixtureDatasets: Promise<Record<Profile, BuiltDataset>> | undefined;

/** Both profiles of the fixture, built once per test file. */
export function fixtureBuild(): Promise<Record<Profile, BuiltDataset>> {
  fixtureDatasets ??= (async () => {
    const content = await scratchContent();
    try {
      const r = await runPipeline({ contentDir: content, asOf: AS_OF });
      if (r.diagnostics.length) throw new Error(`fixture does not build: ${JSON.stringify(r.diagnostics, null, 2)}`);
      return r.datasets!;
    } finally {
      await removeScratch(content);
    }
  })();
  return fixtureDatasets;
}

export async function fixtureHandlers(): Promise<Record<Profile, Handler>> {
  const d = await fixtureBuild();
  return { A: createHandler(d.A), B: createHandler(d.B) };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown> & { message?: string };
}

/** Calls a handler the way the platform does: with a Request, reading back the Response. */
export async function call(handler: Handler, pathAndQuery: string, init?: RequestInit): Promise<Answer> {
  const res = handler(new Request(`https://api.test${pathAndQuery}`, init));
  const text = await res.text();
  const isJson = /json/.test(res.headers.get('Content-Type') ?? '');
  return { status: res.status, headers: res.headers, text, json: text && isJson ? JSON.parse(text) : {} };
}

export const ids = (records: unknown): string[] => (records as { id: string }[]).map((r) => r.id);
