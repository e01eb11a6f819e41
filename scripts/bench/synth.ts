import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { expectedFileName } from '../../pipeline/ids.js';
import { parseYaml } from '../../pipeline/loaders/yaml.js';

/**
 * Scales a content folder N times: copy 0 is the original, copy k gets ids suffixed with k
 * everywhere (players, members, events, initiatives, and every reference to them), so the result
 * has the shape and value distributions of the real data and passes the same validation.
 */
export async function scaleContent(source: string, target: string, factor: number): Promise<number> {
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  for (const name of ['vocabulary.yaml', 'site.yaml', 'schemas']) await cp(join(source, name), join(target, name), { recursive: true });
  const read = async (kind: string) =>
    Promise.all(
      (await readdir(join(source, kind)))
        .sort()
        .map(async (f) => parseYaml(f, await readFile(join(source, kind, f), 'utf8')).data as Record<string, unknown>),
    );
  const kinds = ['events', 'relations', 'players', 'initiatives'] as const;
  const records = Object.fromEntries(await Promise.all(kinds.map(async (k) => [k, await read(k)] as const))) as Record<
    (typeof kinds)[number],
    Record<string, unknown>[]
  >;
  let files = 0;
  for (const k of kinds) await mkdir(join(target, k), { recursive: true });
  for (let copy = 0; copy < factor; copy++) {
    const player = (id: string) => (copy ? `${id} S${copy}` : id);
    const letters = (n: number): string => (n < 26 ? String.fromCharCode(97 + n) : letters(Math.floor(n / 26) - 1) + letters(n % 26));
    const initiative = (id: string) => (copy ? `${id}-${letters(copy)}` : id);
    const url = (u: string) => (copy ? `${u}${u.includes('?') ? '&' : '?'}copy=${copy}` : u);
    const out: [(typeof kinds)[number], Record<string, unknown>][] = [];
    for (const e of records.events) {
      out.push([
        'events',
        {
          ...e,
          id: copy ? `${e.id}-s${copy}` : e.id,
          players: (e.players as string[]).map(player),
          ...(e.initiative ? { initiative: initiative(e.initiative as string) } : {}),
          sources: (e.sources as { url: string }[]).map((s) => ({ ...s, url: url(s.url) })),
        },
      ]);
    }
    for (const r of records.relations)
      out.push(['relations', { ...r, a: player(r.a as string), b: player(r.b as string), source: url(r.source as string) }]);
    for (const p of records.players)
      out.push(['players', { ...p, id: player(p.id as string), members: ((p.members as string[]) ?? []).map(player) }]);
    for (const i of records.initiatives) out.push(['initiatives', { ...i, id: initiative(i.id as string) }]);
    for (const [kind, rec] of out) {
      await writeFile(join(target, kind, expectedFileName(kind, rec as never)), stringify(rec));
      files++;
    }
  }
  return files;
}
