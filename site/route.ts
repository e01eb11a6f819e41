import { PARAMS, type Param } from '../functions/chronicle/query.js';

// The page's address is its whole state. The API's own parameters (topic, region, …) filter, as
// they would on GET /api/chronicle; the page adds a few of its own, which never reach the API's
// parser: `view`, `q` (search), `org` and `initiative`.

export const PAGE_PARAMS = ['view', 'q', 'org', 'initiative'] as const;
type PageParam = (typeof PAGE_PARAMS)[number];

export type View = 'timeline' | 'network' | 'initiatives' | 'org' | 'initiative' | 'unknown';

/** One `name=value` piece of the query string. `name` is undefined when it cannot be decoded. */
interface Piece {
  raw: string;
  name?: string;
  value?: string;
}

export interface Route {
  view: View;
  q: string;
  org?: string;
  initiative?: string;
  /** The API part of the query string, as written (for the API's own parser and its messages). */
  filter: string;
  /** The API part, decoded, for editing. */
  pieces: Piece[];
}

function decode(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Values as the API reads them: every occurrence, split on commas, trimmed. */
export function valuesOf(route: Route, param: Param): string[] {
  return route.pieces.filter((p) => p.name === param).flatMap((p) => (p.value ?? '').split(',').map((v) => v.trim()));
}

export function parseRoute(search: string): Route {
  const own: Partial<Record<PageParam, string>> = {};
  const pieces: Piece[] = [];
  for (const raw of search.replace(/^\?/, '').split('&')) {
    if (raw === '') continue;
    const eq = raw.indexOf('=');
    const name = decode(eq < 0 ? raw : raw.slice(0, eq));
    const value = eq < 0 ? '' : decode(raw.slice(eq + 1));
    if (name !== undefined && (PAGE_PARAMS as readonly string[]).includes(name)) {
      own[name as PageParam] = value ?? '';
      continue;
    }
    pieces.push(value === undefined || name === undefined ? { raw } : { raw, name, value });
  }
  const view: View =
    own.org !== undefined
      ? 'org'
      : own.initiative !== undefined
        ? 'initiative'
        : own.view === undefined || own.view === 'timeline'
          ? 'timeline'
          : own.view === 'network' || own.view === 'initiatives'
            ? own.view
            : 'unknown';
  return { view, q: own.q ?? '', org: own.org, initiative: own.initiative, filter: pieces.map((p) => p.raw).join('&'), pieces };
}

/** Encodes a value for the address bar, keeping commas (they separate values) readable. */
export function enc(s: string): string {
  return encodeURIComponent(s).replace(/%2C/gi, ',');
}

/** The route with one API parameter set to these values (removed when empty). */
export function withParam(route: Route, param: Param, values: readonly string[]): Route {
  const pieces = route.pieces.filter((p) => p.name !== param);
  if (values.length) {
    const piece = { raw: `${param}=${values.map(enc).join(',')}`, name: param, value: values.join(',') };
    // In the API's parameter order, so that equal states read the same.
    const order = (p: Piece) => (p.name === undefined ? PARAMS.length : PARAMS.indexOf(p.name as Param));
    const at = pieces.findIndex((p) => order(p) > PARAMS.indexOf(param));
    pieces.splice(at < 0 ? pieces.length : at, 0, piece);
  }
  return { ...route, pieces, filter: pieces.map((p) => p.raw).join('&') };
}

/** The address of a route: the API part as written, then the page's own parameters. */
export function hrefOf(route: Pick<Route, 'view' | 'q' | 'org' | 'initiative' | 'filter'>): string {
  const parts: string[] = [];
  if (route.view === 'org' && route.org !== undefined) parts.push(`org=${enc(route.org)}`);
  else if (route.view === 'initiative' && route.initiative !== undefined) parts.push(`initiative=${enc(route.initiative)}`);
  else {
    if (route.view === 'network' || route.view === 'initiatives') parts.push(`view=${route.view}`);
    if (route.filter) parts.push(route.filter);
    if (route.q) parts.push(`q=${enc(route.q)}`);
  }
  return parts.length ? `/?${parts.join('&')}` : '/';
}

export const orgHref = (id: string) => `/?org=${enc(id)}`;
export const initiativeHref = (id: string) => `/?initiative=${enc(id)}`;
