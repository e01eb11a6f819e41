import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../pipeline/build.js';
import { ROOT, AS_OF, removeScratch, scratchContent } from './helpers.js';

// One folder per way content can be broken: `files/` is laid over the valid fixture,
// `replace.yaml` edits a copied file, and `expected.txt` holds the exact report lines
// (`file:line:col  path  message`) the pipeline must print for it, and nothing else.
const CASES = join(ROOT, 'test/fixtures/broken');

async function overlay(caseDir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const files = join(caseDir, 'files');
  if (!existsSync(files)) return out;
  for (const entry of await readdir(files, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out[relative(files, path)] = await readFile(path, 'utf8');
    }
  }
  return out;
}

async function applyReplacements(caseDir: string, contentDir: string): Promise<void> {
  const path = join(caseDir, 'replace.yaml');
  if (!existsSync(path)) return;
  for (const r of parse(await readFile(path, 'utf8')) as { file: string; find: string; replace: string }[]) {
    const target = join(contentDir, r.file);
    const text = await readFile(target, 'utf8');
    if (!text.includes(r.find)) throw new Error(`${caseDir}: "${r.find}" is no longer in ${r.file}; update the case`);
    await writeFile(target, text.replace(r.find, r.replace));
  }
}

const cases = (await readdir(CASES, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);

describe('broken content', () => {
  let out: string;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'chronicle-out-'));
  });
  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('has a corpus of at least 30 kinds', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases)('%s: reports the problem at its position and writes nothing', async (name) => {
    const caseDir = join(CASES, name);
    const content = await scratchContent(await overlay(caseDir));
    const buildDir = join(out, name, '.build');
    const publicDir = join(out, name, 'public');
    await mkdir(buildDir, { recursive: true });
    await mkdir(publicDir, { recursive: true });
    await writeFile(join(buildDir, 'served.js'), 'previous build');
    await writeFile(join(publicDir, 'index.html'), 'previous page');
    try {
      await applyReplacements(caseDir, content);
      const result = await build({ contentDir: content, asOf: AS_OF, buildDir, publicDir, served: 'A' });
      const lines = result.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}  ${d.path || '-'}  ${d.message}`).sort();
      const expected = (await readFile(join(caseDir, 'expected.txt'), 'utf8')).split('\n').filter((l) => l.trim() !== '');
      expect(lines).toEqual(expected.sort());
      expect(await readFile(join(buildDir, 'served.js'), 'utf8')).toBe('previous build');
      expect(await readFile(join(publicDir, 'index.html'), 'utf8')).toBe('previous page');
      expect(await readdir(join(out, name))).toEqual(['.build', 'public']);
    } finally {
      await removeScratch(content);
    }
  });
});
