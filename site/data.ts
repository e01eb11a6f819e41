import type { BuiltDataset, Event, Initiative, Player } from '../functions/chronicle/dataset.js';
import { parseQuery, type Parsed, type Query, type QueryRules } from '../functions/chronicle/query.js';
import { initiativeTopics, queryRules } from '../functions/chronicle/rules.js';
import { select, type Selectable } from '../functions/chronicle/select.js';
import { API_PATH, LAYOUT_PATH, type ExplorerConfig } from './config.js';
import type { Positions } from './layout.js';
import { EventSearch } from './search.js';

/** The dataset as the page holds it, with the API's own query rules and selection. */
export interface Explorer {
  config: ExplorerConfig;
  dataset: BuiltDataset;
  selectable: Selectable;
  rules: QueryRules;
  players: Map<string, Player>;
  initiatives: Map<string, Initiative>;
  eventIndex: Map<string, number>;
  search: EventSearch;
  /** Where the build placed each player in the whole network; undefined if it could not be read. */
  layout: Positions | undefined;
}

/** Reads the whole dataset once from the API; every filter afterwards runs in the page. */
export async function loadExplorer(config: ExplorerConfig): Promise<Explorer> {
  // The layout is small and comes alongside; without it the page lays the network out itself.
  const layout = fetch(LAYOUT_PATH)
    .then((r) => (r.ok ? (r.json() as Promise<Positions>) : undefined))
    .catch(() => undefined);
  const res = await fetch(API_PATH, { headers: { Accept: 'application/json' } });
  const body = (await res.json()) as Omit<BuiltDataset, 'profile' | 'version' | 'kinds' | 'filters'> & { message?: string };
  if (!res.ok) throw new Error(body.message ?? `HTTP ${res.status}`);
  const dataset: BuiltDataset = {
    profile: config.profile,
    version: '',
    kinds: config.kinds,
    filters: config.filters,
    otherCodes: config.otherCodes,
    meta: body.meta,
    labels: body.labels,
    events: body.events,
    relations: body.relations,
    players: body.players,
    ...(body.initiatives ? { initiatives: body.initiatives } : {}),
  };
  const players = new Map(dataset.players.map((p) => [p.id, p]));
  return {
    config,
    dataset,
    selectable: { dataset, initiativeTopics: initiativeTopics(dataset) },
    rules: queryRules(dataset),
    players,
    initiatives: new Map((dataset.initiatives ?? []).map((i) => [i.id, i])),
    eventIndex: new Map(dataset.events.map((e, i) => [e.id, i])),
    search: new EventSearch(dataset.events, players),
    layout: await layout,
  };
}

/** The API's parser, over the API part of the page's address. */
export function parse(ex: Explorer, filter: string): Parsed {
  return parseQuery(filter, ex.rules);
}

/** The positions of the records of one kind that the API would return for this query. */
export function positions(ex: Explorer, q: Query, kind: 'events' | 'relations' | 'players'): number[] {
  const chosen = select(ex.selectable, { ...q, include: new Set([kind]) }).get(kind);
  if (chosen === undefined) return [];
  return chosen === 'all' ? ex.dataset[kind].map((_, i) => i) : chosen;
}

export function label(ex: Explorer, group: string, code: string | null | undefined): string {
  if (code === null || code === undefined) return '未判定';
  return ex.dataset.labels[group]?.[code] ?? code;
}

export function playerName(ex: Explorer, id: string): string {
  return ex.players.get(id)?.nameJa ?? id;
}

/** `2024` → 2024年, `2024-03` → 2024年3月, `2024-03-05` → 2024年3月5日: as precise as the record. */
export function formatDate(date: string): string {
  const [y, m, d] = date.split('-');
  return `${y}年${m ? `${Number(m)}月` : ''}${d ? `${Number(d)}日` : ''}`;
}

export function eventsOf(ex: Explorer, idx: readonly number[]): Event[] {
  return idx.map((i) => ex.dataset.events[i]!);
}
