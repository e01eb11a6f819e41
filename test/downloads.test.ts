import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { BuiltDataset, Kind, Profile } from '../functions/chronicle/dataset.js';
import { createHandler } from '../functions/chronicle/handler.js';
import { ARRAY_SEPARATOR, csvCell, csvColumns, downloadFiles, type DownloadFile } from '../pipeline/downloads.js';
import { DATA_LICENSE } from '../pipeline/license.js';
import { runPipeline } from '../pipeline/build.js';
import { AS_OF, call, removeScratch, scratchContent } from './helpers.js';

const csvRows = (text: string | Uint8Array) =>
  parse(typeof text === 'string' ? text : Buffer.from(text).toString('utf8'), {
    bom: true,
    columns: true,
    relax_column_count: false,
  }) as Record<string, string>[];

describe('bulk downloads of the shipped dataset (as npm run build wrote them)', () => {
  let workspace: string;
  const datasets = {} as Record<Profile, BuiltDataset>;
  beforeAll(() => {
    workspace = inject('workspace');
    for (const p of ['A', 'B'] as const)
      datasets[p] = JSON.parse(readFileSync(join(workspace, '.build', `${p}.json`), 'utf8')) as BuiltDataset;
  });
  const file = (p: Profile, name: string) => readFileSync(join(workspace, 'public', 'downloads', p, name));

  it('have as many records in every file as the API returns, in the same order', async () => {
    for (const p of ['A', 'B'] as const) {
      const api = await call(createHandler(datasets[p]), '/api/chronicle');
      const counts = (api.json.meta as { counts: Record<Kind, number> }).counts;
      expect(Object.keys(counts)).toEqual(datasets[p].kinds);
      // The whole dataset is the API's unfiltered answer, byte for byte.
      expect(file(p, 'dataset.json').toString('utf8')).toBe(api.text);
      for (const k of datasets[p].kinds) {
        const apiRecords = api.json[k] as Record<string, unknown>[];
        const ndjson = file(p, `${k}.ndjson`).toString('utf8');
        expect(ndjson.endsWith('\n')).toBe(true);
        const lines = ndjson.slice(0, -1).split('\n');
        expect(lines.length, `${p} ${k}.ndjson`).toBe(counts[k]);
        expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(apiRecords);
        const rows = csvRows(file(p, `${k}.csv`));
        expect(rows.length, `${p} ${k}.csv`).toBe(counts[k]);
        const key = (r: Record<string, unknown>) => (k === 'relations' ? `${r.a}|${r.b}|${r.type}` : String(r.id));
        expect(rows.map(key)).toEqual(apiRecords.map(key));
      }
    }
  });

  it('write CSV that Excel reads as Japanese: UTF-8 with BOM, CRLF, names beside ids and codes', () => {
    for (const p of ['A', 'B'] as const) {
      const bytes = file(p, 'events.csv');
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(bytes.toString('utf8')).toMatch(/\r\n$/);
      const names = new Map(datasets[p].players.map((x) => [x.id, x.nameJa]));
      for (const row of csvRows(bytes)) {
        const ids = row.players!.split(ARRAY_SEPARATOR);
        expect(row.playerNamesJa!.split(ARRAY_SEPARATOR)).toEqual(ids.map((id) => names.get(id)));
        expect(row.topicJa).toBe(datasets[p].labels.topic![row.topic!]);
      }
      for (const row of csvRows(file(p, 'relations.csv'))) {
        expect(row.aNameJa).toBe(names.get(row.a!));
        expect(row.bNameJa).toBe(names.get(row.b!));
      }
    }
  });

  it('list every file in index.json with its records, size and SHA-256, and the licence and credit', () => {
    for (const p of ['A', 'B'] as const) {
      const manifest = JSON.parse(file(p, 'index.json').toString('utf8')) as {
        files: DownloadFile[];
        license: { spdx: string };
        attribution: string;
        arraySeparator: string;
      };
      expect(manifest.license.spdx).toBe(DATA_LICENSE.spdx);
      expect(manifest.attribution).toBe(datasets[p].meta.attribution);
      expect(manifest.arraySeparator).toBe(ARRAY_SEPARATOR);
      expect(manifest.files.map((f) => f.name).sort()).toEqual(
        ['dataset.json', ...datasets[p].kinds.flatMap((k) => [`${k}.csv`, `${k}.ndjson`])].sort(),
      );
      for (const f of manifest.files) {
        const bytes = file(p, f.name);
        expect(f.bytes, f.name).toBe(bytes.byteLength);
        expect(f.sha256, f.name).toBe(createHash('sha256').update(bytes).digest('hex'));
        if (f.kind !== 'all') expect(f.records).toBe(datasets[p][f.kind]!.length);
      }
      const readme = file(p, 'README.txt').toString('utf8');
      expect(readme).toContain(DATA_LICENSE.url);
      expect(readme).toContain(datasets[p].meta.attribution);
      for (const c of csvColumns(datasets[p]).events) expect(readme).toContain(c.name);
    }
  });
});

describe('CSV', () => {
  it('quotes a cell only when it holds a quote, a comma or a line break', () => {
    expect(csvCell('plain 日本語')).toBe('plain 日本語');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('cr\r')).toBe('"cr\r"');
    expect(csvCell('')).toBe('');
  });

  it('round-trips quotes, commas, line breaks and lists through a CSV parser', async () => {
    const tricky = 'ベータペイが「"BPY"」を発行, 米国で,\n2 行目には "引用" と、カンマ,を含む説明。\r\n3 行目。日付は発行日。';
    const content = await scratchContent({
      'events/2021-beta-stablecoin.yaml': `id: 2021-beta-stablecoin
date: 2021-03-15
topic: stablecoin
sub: issuance
players: [Beta Pay, Alpha Bank]
title: 'ベータペイ, "BPY" を発行'
description: ${JSON.stringify(tricky)}
chain: Ethereum
status: launched
region: US
key: false
sources:
  - { kind: press_release, name: 'ベータペイ, Inc.', url: 'https://beta-fixture.com/2021' }
  - { kind: news, name: '"Quoted" News', url: 'https://news-fixture.com/2021' }
`,
    });
    try {
      const r = await runPipeline({ contentDir: content, asOf: AS_OF });
      expect(r.diagnostics).toEqual([]);
      for (const p of ['A', 'B'] as const) {
        const d = r.datasets![p];
        const files = downloadFiles(d);
        const columns = csvColumns(d);
        for (const k of d.kinds) {
          const rows = csvRows(files[`downloads/${p}/${k}.csv`]!);
          const records = d[k]! as never[];
          expect(rows.length).toBe(records.length);
          // Every cell of every row reads back as the value it was written from.
          rows.forEach((row, i) => {
            expect(Object.keys(row)).toEqual(columns[k].map((c) => c.name));
            for (const c of columns[k]) expect(row[c.name], `${k}[${i}].${c.name}`).toBe((c.value as (r: never) => string)(records[i]!));
          });
        }
        const row = csvRows(files[`downloads/${p}/events.csv`]!).find((x) => x.id === '2021-beta-stablecoin')!;
        expect(row.title).toBe('ベータペイ, "BPY" を発行');
        expect(row.description).toBe(tricky);
        expect(row.players!.split(ARRAY_SEPARATOR)).toEqual(['Beta Pay', 'Alpha Bank']);
        expect(row.playerNamesJa!.split(ARRAY_SEPARATOR)).toEqual(['ベータペイ', 'アルファ銀行']);
        if (p === 'A') {
          expect(row.sourceNames!.split(ARRAY_SEPARATOR)).toEqual(['ベータペイ, Inc.', '"Quoted" News']);
          expect(row.sourceUrls!.split(ARRAY_SEPARATOR)).toEqual(['https://beta-fixture.com/2021', 'https://news-fixture.com/2021']);
        }
        const ndjson = String(files[`downloads/${p}/events.ndjson`]).trimEnd().split('\n');
        expect(ndjson.length).toBe(d.events.length);
        expect((JSON.parse(ndjson.find((l) => l.includes('2021-beta-stablecoin'))!) as { description: string }).description).toBe(tricky);
      }
    } finally {
      await removeScratch(content);
    }
  });
});
