// Where the explorer's pages are (site/, served at `/`), for links from the feeds, the sitemap and
// llms.txt. The explorer's own address rules live in site/route.ts; a test keeps these equal to them.

const enc = (s: string) => encodeURIComponent(s).replace(/%2C/gi, ',');

/**
 * One event on the explorer: the timeline narrowed to the event's date (the API's own `from`/`to`,
 * which the page applies as the API does), scrolled to the event's element (`#event-<id>`).
 */
export function explorerEventUrl(source: string, e: { id: string; date: string }): string {
  return new URL(`/?from=${enc(e.date)}&to=${enc(e.date)}#event-${enc(e.id)}`, source).href;
}

/** The explorer's timeline with the API's own filter parameters (`/?topic=cbdc&region=JP`). */
export function explorerListUrl(source: string, query: string): string {
  return new URL(`/${query ? `?${query}` : ''}`, source).href;
}

/** An organization's page (`/?org=<id>`). */
export function explorerOrgUrl(source: string, id: string): string {
  return new URL(`/?org=${enc(id)}`, source).href;
}

/** An initiative's page (`/?initiative=<id>`, Profile A). */
export function explorerInitiativeUrl(source: string, id: string): string {
  return new URL(`/?initiative=${enc(id)}`, source).href;
}

/**
 * The explorer's pages a sitemap lists besides the landing page: every organization's page and
 * every initiative's. The sitemap (pipeline/discovery.ts) lists whatever this returns.
 */
export function explorerPages(source: string, ids: { players: readonly string[]; initiatives: readonly string[] }): string[] {
  return [...ids.players.map((id) => explorerOrgUrl(source, id)), ...ids.initiatives.map((id) => explorerInitiativeUrl(source, id))];
}
