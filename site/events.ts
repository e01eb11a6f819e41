import type { Event } from '../functions/chronicle/dataset.js';
import { formatDate, label, playerName, type Explorer } from './data.js';
import { h, type Child } from './dom.js';
import { initiativeHref, orgHref } from './route.js';

type Heading = 'h2' | 'h3' | 'h4' | 'h5' | 'h6';
const heading = (level: number): Heading => `h${Math.min(6, Math.max(2, level))}` as Heading;

/** One event: date at its precision, codes as labels, players, title, description, initiative, sources. */
export function eventCard(ex: Explorer, e: Event, level: number): HTMLElement {
  const titleId = `title-${e.id}`;
  const initiative = e.initiativeId ? ex.initiatives.get(e.initiativeId) : undefined;
  const sources = e.sources ?? [{ name: '出典', url: e.source }];
  const players: Child[] = e.players.flatMap((id, n) => [n ? '、' : '', h('a', { href: orgHref(id) }, playerName(ex, id))]);
  return h(
    'li',
    { class: 'event', id: `event-${e.id}` },
    h(
      'article',
      { 'aria-labelledby': titleId },
      h(
        'p',
        { class: 'meta' },
        h('time', { datetime: e.date }, formatDate(e.date)),
        h('span', { class: `tag topic topic-${e.topic}` }, label(ex, 'topic', e.topic)),
        h('span', { class: 'tag region' }, label(ex, 'region', e.region)),
        h('span', { class: 'tag status' }, label(ex, 'status', e.status)),
        e.key ? h('span', { class: 'tag key' }, '主要') : null,
      ),
      h(heading(level), { class: 'title', id: titleId }, e.title),
      h('p', { class: 'players' }, h('span', { class: 'k' }, '企業・機関: '), players),
      h('p', { class: 'desc' }, e.description),
      initiative
        ? h(
            'p',
            { class: 'initiative' },
            h('span', { class: 'k' }, 'イニシアティブ: '),
            h('a', { href: initiativeHref(initiative.id) }, initiative.nameJa),
          )
        : null,
      e.chain ? h('p', { class: 'chain' }, h('span', { class: 'k' }, 'チェーン: '), e.chain) : null,
      h(
        'ul',
        { class: 'sources', 'aria-label': '出典' },
        sources.map((s) =>
          h(
            'li',
            null,
            h('a', { href: s.url, rel: 'external noopener noreferrer' }, s.name),
            s.url === e.source ? h('span', { class: 'primary' }, '（主出典）') : null,
          ),
        ),
      ),
    ),
  );
}

/**
 * Events grouped by year and month, in the order given. An event dated to the year only sits under
 * 「月不明」 in its year, after (newest first) or before (oldest first) the dated months.
 */
export function timeline(ex: Explorer, events: readonly Event[], level: number, opts: { yearIndex?: boolean } = {}): HTMLElement {
  const t = timelineInParts(ex, events, level, opts);
  t.more(Infinity);
  return t.el;
}

/** An element filled in parts: `more(n)` appends the next n items and says whether any remain. */
export interface InParts {
  el: HTMLElement;
  more: (n: number) => boolean;
}

/**
 * The same timeline, filled in parts, so that a long list can show its newest events at once and
 * add the rest a part at a time.
 */
export function timelineInParts(ex: Explorer, events: readonly Event[], level: number, opts: { yearIndex?: boolean } = {}): InParts {
  const root = h('div', { class: 'timeline' });
  const years = new Map<string, number>();
  for (const e of events) years.set(e.date.slice(0, 4), (years.get(e.date.slice(0, 4)) ?? 0) + 1);
  const yearId = (y: string) => `y-${level}-${y}`;
  if (opts.yearIndex && years.size > 1) {
    root.append(
      h(
        'nav',
        { class: 'years', 'aria-label': '年へ移動' },
        h(
          'ul',
          null,
          [...years].map(([y, n]) => h('li', null, h('a', { href: `#${yearId(y)}` }, `${y}年`, h('span', { class: 'n' }, ` ${n}`)))),
        ),
      ),
    );
  }
  let year: HTMLElement | undefined;
  let list: HTMLElement | undefined;
  let lastYear = '';
  let lastMonth: string | undefined;
  let next = 0;
  const more = (n: number): boolean => {
    const end = Math.min(events.length, next + n);
    for (; next < end; next++) {
      const e = events[next]!;
      const y = e.date.slice(0, 4);
      const m = e.date.slice(5, 7);
      if (y !== lastYear) {
        year = h(
          'section',
          { class: 'year', 'aria-labelledby': yearId(y) },
          h(heading(level), { id: yearId(y), class: 'year-heading' }, `${y}年`, h('span', { class: 'n' }, `（${years.get(y)} 件）`)),
        );
        root.append(year);
        lastYear = y;
        lastMonth = undefined;
      }
      if (m !== lastMonth) {
        year!.append(h(heading(level + 1), { class: 'month-heading' }, m ? `${y}年${Number(m)}月` : `${y}年（月不明）`));
        list = h('ol', { class: 'events' });
        year!.append(list);
        lastMonth = m;
      }
      list!.append(eventCard(ex, e, level + 2));
    }
    return next < events.length;
  };
  return { el: root, more };
}
