import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CODE_LICENSE, DATA_LICENSE } from '../pipeline/license.js';
import { renderIndexPage } from '../pipeline/page.js';
import { fixtureBuild, ROOT } from './helpers.js';

const read = (name: string) => readFile(join(ROOT, name), 'utf8');

describe('licences and citation', () => {
  it('licenses the code under MIT and the data under CC BY 4.0, and package.json says both', async () => {
    expect(await read(CODE_LICENSE.file)).toMatch(/^MIT License\n/);
    const data = await read(DATA_LICENSE.file);
    expect(data).toContain('CC BY 4.0');
    expect(data).toContain(DATA_LICENSE.url);
    expect(data).toContain(DATA_LICENSE.legalcode);
    const pkg = JSON.parse(await read('package.json')) as { license: string };
    expect(pkg.license).toBe(`${CODE_LICENSE.spdx} AND ${DATA_LICENSE.spdx}`);
  });

  it('has a CITATION.cff with the fields CFF 1.2.0 requires, naming the site and the data licence', async () => {
    const cff = parse(await read('CITATION.cff')) as Record<string, unknown>;
    const site = parse(await read('content/site.yaml')) as { profiles: { A: { source: string } } };
    expect(cff['cff-version']).toBe('1.2.0');
    for (const field of ['message', 'title', 'authors']) expect(cff[field], field).toBeTruthy();
    expect((cff.authors as { name?: string }[]).every((a) => typeof a.name === 'string' && a.name.length > 0)).toBe(true);
    expect(cff.type).toBe('dataset');
    expect(cff.license).toBe(DATA_LICENSE.spdx);
    expect(cff.url).toBe(site.profiles.A.source);
  });

  it('states the licences in the README and on the landing page', async () => {
    const readme = await read('README.md');
    expect(readme).toContain('CC BY 4.0');
    expect(readme).toContain('[LICENSE-DATA](LICENSE-DATA)');
    expect(readme).toContain('[LICENSE](LICENSE)');
    const d = await fixtureBuild();
    for (const p of ['A', 'B'] as const) {
      const page = renderIndexPage(d[p], { js: '/app.js', css: '/app.css' });
      expect(page).toContain(`<a href="${DATA_LICENSE.url}" rel="license">`);
      expect(page).toContain('MIT');
    }
  });
});
