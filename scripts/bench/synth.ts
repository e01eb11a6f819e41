import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { expectedFileName, outletOf } from '../../pipeline/ids.js';
import { parseYaml } from '../../pipeline/loaders/yaml.js';

/** The content schema's limit on a description, in characters. */
const MAX_DESCRIPTION = 400;

/** Players kept unsuffixed in every copy, so that at ×100 each is named by thousands of events. */
export const HUB_PLAYERS = 3;

/**
 * Scales a content folder N times. Copy 0 is the original; copy k gets ids suffixed with k
 * everywhere (players, members, events, initiatives, and every reference to them), and then a
 * heavy tail that exact copies would never have, so that the worst case is what is measured:
 *
 * - the most named players (HUB_PLAYERS) keep their id in every copy's events, so at ×100 each is
 *   in thousands of events (a `player=` query on one of them is the least selective there is);
 * - years are uneven: in every copy past the first, about half the events and relations move to
 *   2024–2025, so recent date ranges hold far more records than early ones; copies get a new
 *   month and day, so that they scatter through the date order instead of sitting beside their
 *   original (which would make every posting list a few long runs);
 * - about one record in five has a description as long as the content schema allows (400
 *   characters, about 2.7 times the real median), and about one event in twenty has 10–30 more
 *   sources, from distinct outlets.
 *
 * Everything is deterministic (a hash of the copy and the record's position), and the result passes
 * the same validation as the real content.
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

  type Source = { kind: string; name: string; url: string };
  const named = new Map<string, number>();
  for (const e of records.events) for (const p of e.players as string[]) named.set(p, (named.get(p) ?? 0) + 1);
  const hubs = new Set(
    [...named]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, HUB_PLAYERS)
      .map(([id]) => id),
  );
  // Real outlets (host and the name curators gave it), for the extra sources.
  const outlets = new Map<string, string>();
  for (const e of records.events) for (const s of e.sources as Source[]) if (s.kind === 'news') outlets.set(outletOf(s.url)!, s.name);
  const outletList = [...outlets].sort((a, b) => (a[0] < b[0] ? -1 : 1));

  let files = 0;
  for (const k of kinds) await mkdir(join(target, k), { recursive: true });
  for (let copy = 0; copy < factor; copy++) {
    const player = (id: string) => (copy ? `${id} S${copy}` : id);
    const eventPlayer = (id: string) => (hubs.has(id) ? id : player(id));
    const letters = (n: number): string => (n < 26 ? String.fromCharCode(97 + n) : letters(Math.floor(n / 26) - 1) + letters(n % 26));
    const initiative = (id: string) => (copy ? `${id}-${letters(copy)}` : id);
    const url = (u: string) => (copy ? `${u}${u.includes('?') ? '&' : '?'}copy=${copy}` : u);
    /** A number in [0, 1) fixed by the copy, the record's position and a salt. */
    const rand = (i: number, salt: number) => (copy ? hash(copy * 1_000_003 + i * 7919 + salt * 104_729) : 1);
    const year = (i: number, y: string) => {
      const r = rand(i, 1);
      return r < 0.3 ? '2025' : r < 0.5 ? '2024' : y;
    };
    // Descriptions may not pass 400 characters (the content schema), so long is the maximum.
    const long = (i: number, text: string) =>
      text && rand(i, 2) < 0.2
        ? Array.from(text.repeat(Math.ceil(MAX_DESCRIPTION / text.length)))
            .slice(0, MAX_DESCRIPTION)
            .join('')
            .trim()
        : text;
    const out: [(typeof kinds)[number], Record<string, unknown>][] = [];
    records.events.forEach((e, i) => {
      const date = e.date as string;
      // Month and day drawn anew (at the precision the curator gave), so that a copy does not sit
      // beside the original in date order: posting lists are as scattered as real data would be.
      const pad = (n: number) => String(n).padStart(2, '0');
      const month = pad(1 + Math.floor(rand(i, 6) * 12));
      const day = pad(1 + Math.floor(rand(i, 7) * 28));
      const moved = copy ? year(i, date.slice(0, 4)) + (date.length >= 7 ? `-${month}` : '') + (date.length === 10 ? `-${day}` : '') : date;
      const id = copy
        ? moved.slice(0, 4) === date.slice(0, 4)
          ? `${e.id}-s${copy}`
          : `${moved.slice(0, 4)}-${e.id}-s${copy}`
        : (e.id as string);
      const sources = (e.sources as Source[]).map((s) => ({ ...s, url: url(s.url) }));
      if (rand(i, 4) < 0.05) {
        const taken = new Set(sources.flatMap((s) => [outletOf(s.url), s.name]));
        const extra = 10 + Math.floor(rand(i, 5) * 21);
        for (const [host, name] of outletList) {
          if (sources.length >= (e.sources as Source[]).length + extra) break;
          if (taken.has(host) || taken.has(name)) continue;
          taken.add(host).add(name);
          sources.push({ kind: 'news', name, url: `https://${host}/synth/${id}` });
        }
      }
      out.push([
        'events',
        {
          ...e,
          id,
          date: moved,
          players: (e.players as string[]).map(eventPlayer),
          description: long(i, e.description as string),
          ...(e.initiative ? { initiative: initiative(e.initiative as string) } : {}),
          sources,
        },
      ]);
    });
    records.relations.forEach((r, i) =>
      out.push([
        'relations',
        { ...r, a: player(r.a as string), b: player(r.b as string), year: year(i, r.year as string), source: url(r.source as string) },
      ]),
    );
    records.players.forEach((p, i) =>
      out.push([
        'players',
        {
          ...p,
          id: player(p.id as string),
          members: ((p.members as string[]) ?? []).map(player),
          ...(p.description ? { description: long(i, p.description as string) } : {}),
        },
      ]),
    );
    records.initiatives.forEach((x, i) =>
      out.push([
        'initiatives',
        { ...x, id: initiative(x.id as string), ...(x.description ? { description: long(i, x.description as string) } : {}) },
      ]),
    );
    for (const [kind, rec] of out) {
      await writeFile(join(target, kind, expectedFileName(kind, rec as never)), stringify(rec));
      files++;
    }
  }
  return files;
}

/** A 32-bit integer mixed (Murmur3's finalizer) and mapped to [0, 1). */
function hash(n: number): number {
  let h = n >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}
