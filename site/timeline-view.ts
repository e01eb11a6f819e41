import type { Event as Record_ } from '../functions/chronicle/dataset.js';
import type { Param, Query } from '../functions/chronicle/query.js';
import { eventsOf, label, parse, positions, type Explorer } from './data.js';
import { h } from './dom.js';
import { timelineInParts, type InParts } from './events.js';
import { hrefOf, valuesOf, withParam, type Route } from './route.js';

type Facet = 'topic' | 'region' | 'status' | 'key' | 'player';

// The whole chronicle is well over a thousand cards, too many to build before the page shows
// anything: the newest come at once, the rest a part at a time, the list marked busy meanwhile.
const FIRST_PART = 50;
const NEXT_PART = 200;
const FACETS: readonly Facet[] = ['topic', 'region', 'status', 'key', 'player'];

export type Navigate = (route: Route, how: 'push' | 'replace') => void;

/** The events the page shows: the API's answer for the filter, narrowed by the search, newest first. */
export function shownEvents(ex: Explorer, q: Query, search: string): number[] {
  const matched = ex.search.match(search);
  const idx = positions(ex, q, 'events').filter((i) => !matched || matched.has(i));
  return idx.reverse();
}

/** For each facet, how many events each value would show with the other filters as they are. */
function facetCounts(ex: Explorer, q: Query, search: string): Record<Facet, Map<string, number>> {
  const out = {} as Record<Facet, Map<string, number>>;
  for (const f of FACETS) {
    const counts = new Map<string, number>();
    const values = (e: Record_): string[] => (f === 'player' ? e.players : f === 'key' ? [String(e.key)] : [e[f]]);
    for (const e of eventsOf(ex, shownEvents(ex, { ...q, [f]: undefined }, search))) {
      for (const v of values(e)) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    out[f] = counts;
  }
  return out;
}

/**
 * The timeline with its filters and search. The form is built once and kept while only the
 * address changes, so focus and typing survive every update; each update reads the address anew.
 */
export class TimelineView {
  readonly el: HTMLElement;
  private route!: Route;
  private readonly checks = new Map<string, { input: HTMLInputElement; count: HTMLElement; param: Param; value: string }>();
  private readonly search: HTMLInputElement;
  private readonly from: HTMLInputElement;
  private readonly to: HTMLInputElement;
  private readonly playerSelect: HTMLSelectElement;
  private readonly playerChips: HTMLElement;
  private readonly count: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly error: HTMLElement;
  private readonly apiLink: HTMLAnchorElement;
  private readonly results: HTMLElement;
  private typing: number | undefined;
  /** Counts fills of the results, so that a fill still adding parts stops when a newer one starts. */
  private fills = 0;

  constructor(
    private readonly ex: Explorer,
    private readonly navigate: Navigate,
  ) {
    const f = ex.dataset.filters;
    const group = (param: 'topic' | 'region' | 'status', legend: string) =>
      h(
        'fieldset',
        { class: `facet facet-${param}` },
        h('legend', null, legend),
        f[param].map((v) => this.checkbox(param, v, label(ex, param, v))),
      );
    this.search = h('input', {
      type: 'search',
      id: 'q',
      name: 'q',
      autocomplete: 'off',
      placeholder: '例: 預金トークン',
      oninput: () => {
        window.clearTimeout(this.typing);
        // The first keystrokes of a search make a history entry, the rest refine it: Back leaves the search.
        this.typing = window.setTimeout(
          () => this.go({ ...this.route, q: this.search.value.trim() }, this.route.q ? 'replace' : 'push'),
          250,
        );
      },
    });
    this.from = this.dateInput('from', '開始（YYYY、YYYY-MM、YYYY-MM-DD）');
    this.to = this.dateInput('to', '終了（YYYY、YYYY-MM、YYYY-MM-DD）');
    this.playerSelect = h('select', {
      id: 'player-add',
      onchange: () => {
        const id = this.playerSelect.value;
        if (id) this.go(withParam(this.route, 'player', [...new Set([...valuesOf(this.route, 'player'), id])]), 'push');
      },
    });
    this.playerChips = h('ul', { class: 'chips', 'aria-label': '選択中の企業・機関' });
    this.count = h('p', { class: 'count', role: 'status' });
    this.summary = h('summary', null, '絞り込み');
    this.error = h('div', { class: 'error', role: 'alert', hidden: true });
    this.apiLink = h('a', { class: 'api-link' }, 'この条件の API の答え（JSON）');
    this.results = h('div', { class: 'results' });
    const form = h(
      'form',
      {
        class: 'filters',
        role: 'search',
        'aria-label': '出来事の検索と絞り込み',
        onsubmit: (e: Event) => {
          e.preventDefault();
          window.clearTimeout(this.typing);
          this.go({ ...this.route, q: this.search.value.trim() }, 'push');
        },
      },
      h(
        'div',
        { class: 'field search-field' },
        h('label', { for: 'q' }, 'キーワード検索'),
        h('div', { class: 'row' }, this.search, h('button', { type: 'submit' }, '検索')),
      ),
      h(
        'details',
        { class: 'more', open: window.matchMedia('(min-width: 56rem)').matches },
        this.summary,
        group('topic', '分野'),
        group('region', '地域'),
        group('status', '状況'),
        h('fieldset', { class: 'facet facet-key' }, h('legend', null, '重要度'), this.checkbox('key', 'true', '主要な出来事のみ')),
        h(
          'fieldset',
          { class: 'facet facet-player' },
          h('legend', null, '企業・機関'),
          this.playerChips,
          h('label', { for: 'player-add', class: 'visually-hidden' }, '企業・機関を追加'),
          this.playerSelect,
        ),
        h(
          'fieldset',
          { class: 'facet facet-date' },
          h('legend', null, '期間'),
          h('div', { class: 'row' }, this.from, h('span', { 'aria-hidden': 'true' }, '〜'), this.to),
        ),
        h('p', null, h('a', { href: '/', class: 'clear' }, '条件をすべて解除')),
      ),
    );
    this.el = h(
      'div',
      { class: 'view view-timeline' },
      h('h1', { tabindex: '-1' }, 'オンチェーン金融クロニクル'),
      h(
        'p',
        { class: 'lead' },
        '預金トークン、ステーブルコイン、CBDC、トークン化資産、暗号資産、DeFi の動きを、出典つきで記録した年表です（新しい順）。',
      ),
      h(
        'div',
        { class: 'columns' },
        form,
        h(
          'section',
          { class: 'results-column', 'aria-label': '年表' },
          this.count,
          this.error,
          h('p', { class: 'api' }, this.apiLink),
          this.results,
        ),
      ),
    );
  }

  private checkbox(param: Param, value: string, text: string): HTMLElement {
    const id = `f-${param}-${value}`;
    const input = h('input', {
      type: 'checkbox',
      id,
      value,
      onchange: () => {
        if (param === 'key') return this.go(withParam(this.route, 'key', input.checked ? ['true'] : []), 'push');
        const others = valuesOf(this.route, param).filter((v) => v !== value);
        this.go(withParam(this.route, param, input.checked ? [...others, value] : others), 'push');
      },
    });
    const count = h('span', { class: 'n' });
    this.checks.set(id, { input, count, param, value });
    return h('div', { class: 'check' }, input, h('label', { for: id }, text, ' ', count));
  }

  private dateInput(param: 'from' | 'to', text: string): HTMLInputElement {
    const input = h('input', {
      type: 'text',
      id: `f-${param}`,
      inputmode: 'numeric',
      autocomplete: 'off',
      placeholder: param === 'from' ? '2020' : '2025-12',
      'aria-label': text,
      size: 10,
      onchange: () => this.go(withParam(this.route, param, input.value.trim() ? [input.value.trim()] : []), 'push'),
    });
    return input;
  }

  private go(route: Route, how: 'push' | 'replace'): void {
    this.navigate(route, how);
  }

  /** Shows the state of this address: controls, counts, the message of an invalid filter, the events. */
  update(route: Route): void {
    this.route = route;
    const ex = this.ex;
    if (document.activeElement !== this.search) this.search.value = route.q;
    const parsed = parse(ex, route.filter);
    for (const c of this.checks.values()) {
      const values = valuesOf(route, c.param);
      c.input.checked = c.param === 'key' ? values.length > 0 && values.every((v) => v === 'true') : values.includes(c.value);
    }
    for (const [param, input] of [
      ['from', this.from],
      ['to', this.to],
    ] as const) {
      if (document.activeElement !== input) input.value = valuesOf(route, param).join(',');
    }
    const chosenPlayers = valuesOf(route, 'player');
    this.playerChips.replaceChildren(
      ...chosenPlayers.map((id) =>
        h(
          'li',
          null,
          ex.players.get(id)?.nameJa ?? id,
          h(
            'button',
            {
              type: 'button',
              'aria-label': `${ex.players.get(id)?.nameJa ?? id} の条件を外す`,
              onclick: () =>
                this.go(
                  withParam(
                    route,
                    'player',
                    chosenPlayers.filter((p) => p !== id),
                  ),
                  'push',
                ),
            },
            '×',
          ),
        ),
      ),
    );

    const active = route.pieces.filter((p) => p.name !== 'include').length;
    this.summary.textContent = active ? `絞り込み（条件 ${active} 件）` : '絞り込み';

    const api = `/api/chronicle?include=events${route.filter ? `&${route.filter}` : ''}`;
    this.apiLink.href = api;
    if (!parsed.ok) {
      this.error.hidden = false;
      this.error.replaceChildren(
        h('p', { class: 'message' }, parsed.message),
        h('p', null, h('a', { href: hrefOf({ view: 'timeline', q: route.q, filter: '' }) }, '絞り込みを解除する')),
      );
      this.count.textContent = '条件に誤りがあるため表示できません';
      for (const c of this.checks.values()) c.count.textContent = '';
      this.fillPlayers(undefined);
      this.fill(undefined);
      return;
    }
    this.error.hidden = true;
    const shown = shownEvents(ex, parsed.query, route.q);
    const counts = facetCounts(ex, parsed.query, route.q);
    for (const c of this.checks.values()) c.count.textContent = `(${counts[c.param as Facet]?.get(c.value) ?? 0})`;
    this.fillPlayers(counts.player);
    this.count.textContent = `${shown.length} 件の出来事${route.q ? `（「${route.q}」を含む）` : ''}・新しい順`;
    this.fill(
      shown.length
        ? timelineInParts(ex, eventsOf(ex, shown), 2, { yearIndex: true })
        : { el: h('p', { class: 'empty' }, '条件に合う出来事はありません。条件を減らしてみてください。'), more: () => false },
    );
  }

  /** Shows the first part of the results now and adds the rest later, yielding to the browser between parts. */
  private fill(t: InParts | undefined): void {
    const fill = ++this.fills;
    this.results.replaceChildren(...(t ? [t.el] : []));
    const done = () => this.results.removeAttribute('aria-busy');
    if (!t?.more(FIRST_PART)) return done();
    this.results.setAttribute('aria-busy', 'true');
    const step = () => {
      if (fill !== this.fills) return;
      if (t.more(NEXT_PART)) window.setTimeout(step, 0);
      else done();
    };
    window.setTimeout(step, 0);
  }

  private fillPlayers(counts: Map<string, number> | undefined): void {
    const ex = this.ex;
    const chosen = new Set(valuesOf(this.route, 'player'));
    const players = [...ex.dataset.players].sort(
      (a, b) => (counts ? (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0) : 0) || a.nameJa.localeCompare(b.nameJa, 'ja'),
    );
    this.playerSelect.replaceChildren(
      h('option', { value: '' }, '企業・機関を追加…'),
      ...players
        .filter((p) => !chosen.has(p.id))
        .map((p) => h('option', { value: p.id }, `${p.nameJa}${counts ? ` (${counts.get(p.id) ?? 0})` : ''}`)),
    );
    this.playerSelect.value = '';
  }
}
