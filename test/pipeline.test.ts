import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveAsOf } from '../pipeline/as-of.js';
import { build, runPipeline } from '../pipeline/build.js';
import { formatReport } from '../pipeline/diagnostics.js';
import type { BuiltDataset } from '../functions/chronicle/dataset.js';
import { createHandler } from '../functions/chronicle/handler.js';
import type { Served } from '../functions/chronicle/image.js';
import { AS_OF, CONTENT, ROOT, removeScratch, scratchContent } from './helpers.js';

const scratch: string[] = [];
afterAll(async () => {
  for (const d of scratch) await rm(d, { recursive: true, force: true });
});
const tempDir = async () => {
  const d = await mkdtemp(join(tmpdir(), 'chronicle-build-'));
  scratch.push(d);
  return d;
};

async function readTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out[join(e.parentPath, e.name).slice(dir.length)] = await readFile(join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

describe('build output', () => {
  it('is byte-for-byte the same for the same content', async () => {
    const content = await scratchContent();
    try {
      const [x, y] = [await tempDir(), await tempDir()];
      for (const d of [x, y]) {
        const r = await build({ contentDir: content, asOf: AS_OF, buildDir: join(d, '.build'), publicDir: join(d, 'public'), served: 'A' });
        expect(r.diagnostics).toEqual([]);
      }
      expect(await readTree(x)).toEqual(await readTree(y));
    } finally {
      await removeScratch(content);
    }
  });

  it('bakes the chosen profile into served.js and writes both profiles', async () => {
    const content = await scratchContent();
    try {
      const d = await tempDir();
      await build({ contentDir: content, asOf: AS_OF, buildDir: join(d, '.build'), publicDir: join(d, 'public'), served: 'B' });
      const served = (await import(join(d, '.build', 'served.js'))) as { default: { profile: string; meta: { asOf: string } } };
      expect(served.default.profile).toBe('B');
      expect(served.default.meta.asOf).toBe(AS_OF);
      expect(JSON.parse(await readFile(join(d, '.build', 'A.json'), 'utf8')).profile).toBe('A');
      const page = await readFile(join(d, 'public', 'index.html'), 'utf8');
      expect(page).toContain('基本版');
      // The curl example on the page is absolute, on the profile's own site, and answers 200.
      const example = /<pre>curl '([^']+)'<\/pre>/.exec(page)![1]!.replaceAll('&#38;', '&');
      const site = JSON.parse(await readFile(join(d, '.build', 'B.json'), 'utf8')) as BuiltDataset;
      expect(example.startsWith(`${site.meta.source.replace(/\/$/, '')}/api/chronicle?`)).toBe(true);
      const res = createHandler(site)(new Request(example));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { events: unknown[] }).events.length).toBeGreaterThan(0);
      expect(Object.keys(await readTree(join(d, 'public', 'schemas')))).toContain('/response-B.schema.json');
    } finally {
      await removeScratch(content);
    }
  });

  it('serves from the image served.js reads, answering as the dataset does, and never from another build’s', async () => {
    const content = await scratchContent();
    try {
      const d = await tempDir();
      await build({ contentDir: content, asOf: AS_OF, buildDir: join(d, '.build'), publicDir: join(d, 'public'), served: 'A' });
      const { default: served } = (await import(join(d, '.build', 'served.js'))) as { default: Served };
      const dataset = JSON.parse(await readFile(join(d, '.build', 'A.json'), 'utf8')) as BuiltDataset;
      const [fromImage, fromDataset] = [createHandler(served), createHandler(dataset)];
      for (const q of ['', '?include=events&from=2023&key=true', '?player=Alpha%20Bank&topic=deposit', '?topic=x']) {
        const [a, b] = [fromImage, fromDataset].map((h) => h(new Request(`https://api.test/api/chronicle${q}`)));
        expect(await a!.text(), q).toBe(await b!.text());
        expect([...a!.headers], q).toEqual([...b!.headers]);
      }
      // The image starts with its build's version; one of another build is not used.
      const bin = join(d, '.build', 'served.bin');
      const bytes = await readFile(bin);
      expect(bytes.subarray(0, served.version.length).toString()).toBe(served.version);
      bytes.write('x'.repeat(served.version.length));
      await writeFile(bin, bytes);
      expect(() => served.open()).toThrow(/served\.bin of build .* not found/);
    } finally {
      await removeScratch(content);
    }
  });
});

describe('vocabulary as the one source of code lists', () => {
  it('carries a new code into schemas, labels and query validation from one edit', async () => {
    const content = await scratchContent();
    try {
      const vocab = join(content, 'vocabulary.yaml');
      const text = await readFile(vocab, 'utf8');
      const { writeFile } = await import('node:fs/promises');
      await writeFile(vocab, text.replace('    LATAM: 中南米', '    LATAM: 中南米\n    MEA: 中東・アフリカ'));
      const r = await runPipeline({ contentDir: content, asOf: AS_OF });
      // The committed editor schemas are now stale, which the pipeline says; everything else follows.
      expect(r.diagnostics.map((d) => d.file)).toEqual(expect.arrayContaining(['content/schemas/event.schema.json']));
      const { allJsonSchemas } = await import('../pipeline/schemas.js');
      const { loadVocabulary } = await import('../pipeline/vocabulary.js');
      const { parseYaml } = await import('../pipeline/loaders/yaml.js');
      const v = loadVocabulary(parseYaml('vocabulary.yaml', await readFile(vocab, 'utf8'))).vocabulary!;
      expect(v.labels('A').region!.MEA).toBe('中東・アフリカ');
      expect(v.labels('B').region!.MEA).toBe('中東・アフリカ');
      const event = allJsonSchemas(v).event as { properties: { region: { enum: string[] } } };
      expect(event.properties.region.enum).toContain('MEA');
    } finally {
      await removeScratch(content);
    }
  });
});

describe('editor schemas', () => {
  it('describe every property of every record kind', async () => {
    const missing: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return;
      const n = node as { properties?: Record<string, { description?: string }>; items?: unknown; anyOf?: unknown[] };
      for (const [k, p] of Object.entries(n.properties ?? {})) {
        if (!p.description) missing.push(`${path}.${k}`);
        walk(p, `${path}.${k}`);
      }
      if (n.items) walk(n.items, `${path}[]`);
    };
    for (const stem of ['event', 'relation', 'player', 'initiative']) {
      const schema = JSON.parse(await readFile(join(CONTENT, 'schemas', `${stem}.schema.json`), 'utf8'));
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      walk(schema, stem);
    }
    expect(missing).toEqual([]);
  });
});

describe('meta.asOf', () => {
  it('takes CHRONICLE_AS_OF when set, and refuses a date that does not exist', () => {
    expect(resolveAsOf(CONTENT, { CHRONICLE_AS_OF: '2025-12-31' }).asOf).toBe('2025-12-31');
    expect(() => resolveAsOf(CONTENT, { CHRONICLE_AS_OF: '2025-02-30' })).toThrow(/CHRONICLE_AS_OF/);
  });

  it('is the date of the last commit that changed the content folder', async () => {
    const repo = await tempDir();
    const git = (args: string[], date?: string) =>
      execFileSync('git', args, {
        cwd: repo,
        // Without the GIT_* variables a caller may have set (`git rebase --exec`, hooks): with
        // GIT_DIR inherited, `git init` here re-initialized the checkout's own repository as bare.
        env: {
          ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_'))),
          GIT_AUTHOR_DATE: date,
          GIT_COMMITTER_DATE: date,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      });
    const { mkdir, writeFile } = await import('node:fs/promises');
    git(['init', '-q']);
    await mkdir(join(repo, 'content'));
    await writeFile(join(repo, 'content', 'a.yaml'), 'a: 1\n');
    git(['add', '.']);
    git(['commit', '-qm', 'content'], '2025-03-04T10:00:00Z');
    await writeFile(join(repo, 'README.md'), 'x\n');
    git(['add', '.']);
    git(['commit', '-qm', 'other'], '2025-06-07T10:00:00Z');
    expect(resolveAsOf(join(repo, 'content'), {}).asOf).toBe('2025-03-04');
  });

  it('falls back to today, saying so, outside a git checkout', async () => {
    const dir = await tempDir();
    const r = resolveAsOf(dir, { PATH: process.env.PATH });
    expect(r.asOf).toBe(new Date().toISOString().slice(0, 10));
    expect(r.note).toContain('CHRONICLE_AS_OF');
  });
});

describe('report', () => {
  it('groups problems by file, one `file:line:col  path  message` line each, hints indented', () => {
    const text = formatReport([
      { file: 'content/events/b.yaml', line: 3, col: 7, path: 'date', message: 'm2' },
      { file: 'content/events/a.yaml', line: 9, col: 1, path: '', message: 'm3' },
      { file: 'content/events/a.yaml', line: 2, col: 5, path: 'topic', message: 'm1', hint: 'h1' },
    ]);
    expect(text.split('\n')).toEqual([
      'content/events/a.yaml:2:5  topic  m1',
      '    ヒント: h1',
      'content/events/a.yaml:9:1  -  m3',
      '',
      'content/events/b.yaml:3:7  date  m2',
      '',
      '3 件の問題（2 ファイル）。直してから、もう一度実行してください。',
    ]);
  });
});

describe('npm run check', () => {
  it('passes on the shipped content', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'pipeline/cli.ts', 'check'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toContain('問題はありません');
    expect(r.status).toBe(0);
  });

  it('reads more content files than it may hold open at once', () => {
    // 150 descriptors, fewer than the shipped files: reading them all at once fails with EMFILE.
    const r = spawnSync('bash', ['-c', 'ulimit -n 150 && exec "$0" --import tsx pipeline/cli.ts check', process.execPath], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.stderr).toContain('問題はありません');
    expect(r.status).toBe(0);
  });

  it('refuses an unknown profile', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'pipeline/cli.ts', 'build'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CHRONICLE_PROFILE: 'C' },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('CHRONICLE_PROFILE=C');
  });
});

describe('docs/codes.md', () => {
  it('is what the vocabulary generates (run npm run generate after changing it)', async () => {
    const { renderCodesDoc } = await import('../pipeline/codes-doc.js');
    const { loadVocabulary } = await import('../pipeline/vocabulary.js');
    const { parseYaml } = await import('../pipeline/loaders/yaml.js');
    const v = loadVocabulary(parseYaml('vocabulary.yaml', await readFile(join(CONTENT, 'vocabulary.yaml'), 'utf8'))).vocabulary!;
    expect(await readFile(join(ROOT, 'docs', 'codes.md'), 'utf8')).toBe(renderCodesDoc(v));
  });
});

describe('untrusted content', () => {
  it('refuses links and special files without reading through them', async () => {
    const content = await scratchContent();
    try {
      const secret = join(await tempDir(), 'secret.yaml');
      await writeFile(secret, 'id: 2030-secret\ntitle: SECRET-VALUE\n');
      await symlink(secret, join(content, 'events', '2030-linked.yaml'));
      await symlink('/', join(content, 'players', 'root'));
      await symlink('loop', join(content, 'initiatives', 'loop'));
      execFileSync('mkfifo', [join(content, 'relations', 'pipe.yaml')]);
      const r = await runPipeline({ contentDir: content, asOf: AS_OF });
      const lines = r.diagnostics.map((d) => `${d.file}  ${d.message}`).sort();
      expect(lines).toEqual([
        'content/events/2030-linked.yaml  シンボリックリンクは置けません',
        'content/initiatives/loop  シンボリックリンクは置けません',
        'content/players/root  シンボリックリンクは置けません',
        'content/relations/pipe.yaml  通常のファイルではありません',
      ]);
      expect(JSON.stringify(r.diagnostics)).not.toContain('SECRET-VALUE');
    } finally {
      await removeScratch(content);
    }
  });

  it('reports a list far longer than a call can spread, as problems, not a crash', async () => {
    // Ids with a character ids may not have: one schema problem per item, 200,000 in one file.
    const players = Array.from({ length: 200_000 }, (_, i) => `'bad/${i}'`).join(', ');
    const content = await scratchContent({
      'events/2030-long.yaml': `id: 2030-long\ndate: '2030-01-01'\ntopic: deposit\nsub: issuance\nplayers: [${players}]\ntitle: 長い\ndescription: 長い。\nchain: ''\nstatus: launched\nregion: JP\nkey: false\nsources:\n  - {kind: news, name: N, url: 'https://news-fixture.org/long'}\n`,
    });
    try {
      const r = await runPipeline({ contentDir: content, asOf: AS_OF });
      expect(r.diagnostics.length).toBeGreaterThanOrEqual(200_000);
      expect(r.diagnostics.every((d) => d.file === 'content/events/2030-long.yaml')).toBe(true);
    } finally {
      await removeScratch(content);
    }
  }, 60_000);

  it('says a step found problems instead of calling it done', async () => {
    const content = await scratchContent({ 'events/2030-bad.yaml': 'id: 2030-bad\n' });
    try {
      const progress: string[] = [];
      await runPipeline({ contentDir: content, asOf: AS_OF, progress: (m) => progress.push(m) });
      expect(progress.join('\n')).not.toContain('完了');
      expect(progress.join('\n')).toMatch(/問題 \d+ 件/);
    } finally {
      await removeScratch(content);
    }
  });
});
