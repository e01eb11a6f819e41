import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BuiltDataset, Profile } from '../functions/chronicle/dataset.js';
import { build, runPipeline } from '../pipeline/build.js';
import { changeLogs, fingerprints, SNAPSHOT_PATH, snapshotText, type ChangeLog, type Snapshot } from '../pipeline/changes.js';
import { formatReport } from '../pipeline/diagnostics.js';
import { renderIndexPage } from '../pipeline/page.js';
import { AS_OF, removeScratch, scratchContent } from './helpers.js';

const scratch: string[] = [];
afterAll(async () => {
  for (const d of scratch) await rm(d, { recursive: true, force: true });
});
const tempDir = async () => {
  const d = await mkdtemp(join(tmpdir(), 'chronicle-changes-'));
  scratch.push(d);
  return d;
};

/** Builds the fixture, records it as published (as `npm run publish:record` does) and returns the snapshot file. */
async function publishedFixture(): Promise<{ file: string; snapshot: Snapshot; datasets: Record<Profile, BuiltDataset> }> {
  const content = await scratchContent();
  try {
    const r = await runPipeline({ contentDir: content, asOf: '2026-01-01' });
    expect(r.diagnostics).toEqual([]);
    const snapshot: Snapshot = { asOf: '2026-01-01', records: fingerprints(r.datasets!), changes: r.changes! };
    const file = join(await tempDir(), 'snapshot.json');
    await writeFile(file, snapshotText(snapshot));
    return { file, snapshot, datasets: r.datasets! };
  } finally {
    await removeScratch(content);
  }
}

const EDITS = {
  // One event gone, one changed, one new.
  'events/2019-alpha-research.yaml': null,
  'events/2021-beta-stablecoin.yaml': `id: 2021-beta-stablecoin
date: 2021-03-15
topic: stablecoin
sub: issuance
players: [Beta Pay]
title: ベータペイがステーブルコインを発行（見出しを直した）
description: 試験用のイベント。日付は発表日。
chain: Ethereum
status: launched
region: US
key: false
sources:
  - { kind: press_release, name: ベータペイ, url: 'https://beta-fixture.com/2021' }
`,
  'events/2026-beta-new-coin.yaml': `id: 2026-beta-new-coin
date: 2026-01-10
topic: stablecoin
sub: issuance
players: [Beta Pay]
title: ベータペイが新しいステーブルコインを発行
description: 試験用のイベント。日付は発表日。
chain: Ethereum
status: launched
region: US
key: false
sources:
  - { kind: press_release, name: ベータペイ, url: 'https://beta-fixture.com/2026' }
`,
};

describe('published ids', () => {
  it('fail the check, at the id in the snapshot, when a published event disappears undeclared', async () => {
    const { file } = await publishedFixture();
    const content = await scratchContent(EDITS);
    try {
      const r = await runPipeline({ contentDir: content, asOf: AS_OF, snapshotFile: file });
      expect(r.datasets).toBeUndefined();
      expect(r.diagnostics).toHaveLength(1);
      const d = r.diagnostics[0]!;
      const text = await readFile(file, 'utf8');
      const line = text.split('\n').findIndex((l) => l.includes('"2019-alpha-research":')) + 1;
      expect(d).toMatchObject({ file: SNAPSHOT_PATH, line, col: 9, path: 'events.2019-alpha-research' });
      expect(d.message).toBe('公開済みの イベント 2019-alpha-research が content/events/ から消えています');
      expect(d.hint).toContain('content/removed.yaml');
      expect(formatReport(r.diagnostics)).toContain(`${SNAPSHOT_PATH}:${line}:9  events.2019-alpha-research  公開済みの イベント`);
    } finally {
      await removeScratch(content);
    }
  });

  it('pass once the removal is declared, and log added, changed and removed records per profile', async () => {
    const { file } = await publishedFixture();
    const content = await scratchContent({
      ...EDITS,
      'removed.yaml': '- { kind: events, id: 2019-alpha-research, reason: 研究の開始は 2020 年の実証に含めました, date: 2026-01-12 }\n',
    });
    try {
      const r = await runPipeline({ contentDir: content, asOf: AS_OF, snapshotFile: file });
      expect(r.diagnostics).toEqual([]);
      const a = r.changes!.A;
      expect(a).toMatchObject({ profile: 'A', asOf: AS_OF, since: '2026-01-01' });
      expect(a.added.events).toEqual(['2026-beta-new-coin']);
      expect(a.changed.events).toEqual(['2021-beta-stablecoin']);
      expect(a.removed.events).toEqual([{ id: '2019-alpha-research', reason: '研究の開始は 2020 年の実証に含めました' }]);
      // The initiative lost an event: its eventIds changed.
      expect(a.changed.initiatives).toEqual(['alpha-coin']);
      expect(a.added.players).toEqual([]);
      expect(a.summary).toBe('2026-01-01 の公開からの変更: イベント 追加 1・更新 1・削除 1 件、イニシアティブ 更新 1 件。');
      expect(renderIndexPage(r.datasets!.A, { js: '/app.js', css: '/app.css' }, a)).toContain(
        `${a.summary}変更履歴: <a href="/changes.json">`,
      );
      // Profile B has no initiatives, and the deposit event that went was in B too.
      const b = r.changes!.B;
      expect(Object.keys(b.counts)).toEqual(['events', 'relations', 'players']);
      expect(b.removed.events!.map((x) => x.id)).toEqual(['2019-alpha-research']);
    } finally {
      await removeScratch(content);
    }
  });

  it('refuse a removal that names a record still there, and a removal written twice', async () => {
    const { file } = await publishedFixture();
    const content = await scratchContent({
      'removed.yaml': `- kind: events
  id: 2020-alpha-coin-pilot
  reason: 試験
- { kind: players, id: Old Name, reason: 統合 }
- { kind: players, id: Old Name, reason: 統合 }
`,
    });
    try {
      const r = await runPipeline({ contentDir: content, asOf: AS_OF, snapshotFile: file });
      expect(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}  ${d.message}`)).toEqual([
        'content/removed.yaml:2:7  2020-alpha-coin-pilot は取り下げたことになっていますが、content/events/ にあります',
        'content/removed.yaml:5:24  Old Name は removed.yaml に 2 回書かれています',
      ]);
    } finally {
      await removeScratch(content);
    }
  });

  it('report a removals file or a snapshot that cannot be read, without crashing', async () => {
    const dir = await tempDir();
    const bad = join(dir, 'snapshot.json');
    await writeFile(bad, '{"asOf": "2026-01-01", ');
    const content = await scratchContent({ 'removed.yaml': '- { kind: event, id: x }\n' });
    try {
      const r = await runPipeline({ contentDir: content, asOf: AS_OF, snapshotFile: bad });
      const lines = r.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}  ${d.path}`);
      expect(lines).toContain(`${SNAPSHOT_PATH}:1:1  `);
      expect(lines.some((l) => l.startsWith('content/removed.yaml:1:'))).toBe(true);
    } finally {
      await removeScratch(content);
    }
  });

  it('let a renamed player go when its old id is among the members of a player', async () => {
    const { snapshot, datasets } = await publishedFixture();
    const rename = (d: BuiltDataset): BuiltDataset => ({
      ...d,
      players: d.players.map((p) => (p.id === 'Gamma Chain' ? { ...p, id: 'Gamma Network', members: ['Gamma Chain'] } : p)),
    });
    const logs = changeLogs({ A: rename(datasets.A), B: rename(datasets.B) }, snapshot, []);
    expect(logs.A.removed.players).toEqual([
      { id: 'Gamma Chain', reason: 'Gamma Network の members にまとめました', renamedTo: 'Gamma Network' },
    ]);
    expect(logs.A.added.players).toEqual(['Gamma Network']);
  });
});

describe('change log output', () => {
  it('writes changes.json per profile, serves the same log when rebuilt unchanged, and shows the summary', async () => {
    const { file, snapshot } = await publishedFixture();
    // Unchanged content: the log is the one recorded with that publish, not an empty one.
    const content = await scratchContent();
    const out = await tempDir();
    try {
      const r = await build({
        contentDir: content,
        asOf: '2026-01-01',
        snapshotFile: file,
        buildDir: join(out, '.build'),
        publicDir: join(out, 'public'),
        served: 'B',
      });
      expect(r.diagnostics).toEqual([]);
      const read = async (name: string) => JSON.parse(await readFile(join(out, 'public', name), 'utf8')) as ChangeLog;
      expect(await read('changes-A.json')).toEqual(snapshot.changes.A);
      expect(await read('changes-B.json')).toEqual(snapshot.changes.B);
      expect(await read('changes.json')).toEqual(snapshot.changes.B);
      expect(snapshot.changes.A).toMatchObject({ since: null, added: { events: [] } });
      expect(snapshot.changes.A.summary).toContain('前回の公開の記録がないため');
      const page = await readFile(join(out, 'public', 'index.html'), 'utf8');
      // A first record has nothing to compare: the page links the log without a summary.
      expect(page).not.toContain(snapshot.changes.B.summary);
      expect(page).toContain('<a href="/changes.json">changes.json</a>');
    } finally {
      await removeScratch(content);
    }
  });

  it('keeps the committed snapshot in step with the shipped content (npm run publish:record)', async () => {
    // The shipped content must pass the published-id check against the committed snapshot: the
    // test workspace's build (global setup) ran it; here the snapshot is at least well-formed.
    const text = await readFile(join(import.meta.dirname, '..', SNAPSHOT_PATH), 'utf8');
    const snapshot = JSON.parse(text) as Snapshot;
    expect(Object.keys(snapshot)).toEqual(['asOf', 'records', 'changes']);
    expect(Object.keys(snapshot.records.A)).toEqual(['events', 'relations', 'players', 'initiatives']);
    expect(snapshotText(snapshot)).toBe(text);
  });
});
