import { createHash } from 'node:crypto';
import type { BuiltDataset, CodeParam, Event, OtherCode, Initiative, Player, Profile, Relation } from '../functions/chronicle/dataset.js';
import type { Records } from './crosscheck.js';
import { isExtended, KINDS } from './profiles.js';
import type { Site } from './site.js';
import type { Vocabulary } from './vocabulary.js';

// Code-unit order, not locale order: the output must not depend on the machine that builds it.
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One profile's complete dataset, in the final response shape and order. */
export function project(v: Vocabulary, r: Records, site: Site, p: Profile, asOf: string): BuiltDataset {
  const extended = isExtended(p);
  const sourceOrder = v.codes('sourceKind');
  const code = (group: 'topic' | 'sub' | 'status' | 'region' | 'relation' | 'category' | 'sector', c: string) => v.inProfile(group, c, p)!;

  const events: Event[] = r.events
    .filter(({ record: e }) => v.inProfile('topic', e.topic, p) !== undefined)
    .map(({ record: e }) => ({
      id: e.id,
      date: e.date,
      topic: code('topic', e.topic),
      sub: code('sub', e.sub),
      players: e.players,
      title: e.title,
      description: e.description,
      chain: e.chain,
      status: code('status', e.status),
      region: code('region', e.region),
      // The first source a curator recorded stays the event's `source`, however `sources` is sorted.
      source: e.sources[0]!.url,
      key: e.key,
      ...(extended
        ? {
            sources: e.sources
              .map((s, i) => ({ s, i }))
              .sort((x, y) => sourceOrder.indexOf(x.s.kind) - sourceOrder.indexOf(y.s.kind) || x.i - y.i)
              .map(({ s }) => ({ name: s.name, url: s.url })),
            initiativeId: e.initiative ?? null,
          }
        : {}),
    }))
    .sort((a, b) => cmp(a.date, b.date) || cmp(a.id, b.id));

  const relations: Relation[] = r.relations
    .filter(({ record: x }) => v.inProfile('topic', x.topic, p) !== undefined && v.inProfile('relation', x.type, p) !== undefined)
    .map(({ record: x }) => ({
      a: x.a,
      b: x.b,
      type: code('relation', x.type),
      label: x.label,
      year: x.year,
      topic: code('topic', x.topic),
      source: x.source,
    }))
    .sort((a, b) => cmp(a.year, b.year) || cmp(a.a, b.a) || cmp(a.b, b.b) || cmp(a.type, b.type));

  const players: Player[] = r.players
    .map(({ record: x }) => ({
      id: x.id,
      nameJa: x.nameJa,
      category: code('category', x.category),
      ...(extended ? { sector: x.sector ? code('sector', x.sector) : null } : {}),
      region: code('region', x.region),
      members: x.members ?? [],
      ...(extended ? { description: x.description ?? '' } : {}),
    }))
    .sort((a, b) => cmp(a.id, b.id));

  const dataset: Omit<BuiltDataset, 'version'> = {
    profile: p,
    kinds: [...KINDS[p]],
    filters: {
      topic: v.profileCodes('topic', p, 'events').map((c) => c.code),
      region: v.profileCodes('region', p).map((c) => c.code),
      status: v.profileCodes('status', p).map((c) => c.code),
    },
    otherCodes: {
      topic: otherCodes(v, 'topic', p),
      region: otherCodes(v, 'region', p),
      status: otherCodes(v, 'status', p),
    },
    meta: { asOf, source: site[p].source, attribution: site[p].attribution },
    labels: v.labels(p),
    events,
    relations,
    players,
  };
  if (KINDS[p].includes('initiatives')) {
    // Events are already in date order, so each initiative's list is too.
    const byInitiative = new Map<string, string[]>();
    for (const e of events) if (e.initiativeId) byInitiative.set(e.initiativeId, [...(byInitiative.get(e.initiativeId) ?? []), e.id]);
    dataset.initiatives = r.initiatives
      .map(({ record: x }): Initiative => ({
        id: x.id,
        nameJa: x.nameJa,
        aliases: x.aliases ?? [],
        description: x.description ?? '',
        eventIds: byInitiative.get(x.id) ?? [],
      }))
      .sort((a, b) => cmp(a.id, b.id));
  }
  const version = createHash('sha256').update(JSON.stringify(dataset)).digest('hex').slice(0, 20);
  return { ...dataset, version };
}

/** The filter codes of a group that the profile lacks, with where they are (for the hints of a 400). */
function otherCodes(v: Vocabulary, group: CodeParam, p: Profile): Record<string, OtherCode> {
  const served = new Set(v.profileCodes(group, p, 'events').map((c) => c.code));
  const out: Record<string, OtherCode> = {};
  for (const c of v.groups[group].codes) {
    if (served.has(c.code) || c.relationsOnly) continue;
    out[c.code] = { ja: c.ja, ...(c.mapTo[p] ? { mapTo: c.mapTo[p] } : {}), profiles: [...c.profiles] };
  }
  return out;
}
