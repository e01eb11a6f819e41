import type { Relation } from '../functions/chronicle/dataset.js';
import { eventsOf, formatDate, label, parse, positions, type Explorer } from './data.js';
import { h } from './dom.js';
import { timeline } from './events.js';
import { legend, networkSvg } from './network.js';
import { enc, hrefOf, initiativeHref, orgHref, valuesOf, withParam, type Route } from './route.js';
import type { Navigate } from './timeline-view.js';

export interface Page {
  el: HTMLElement;
  title: string;
}

const view = (name: string, ...children: Parameters<typeof h>[2][]) => h('div', { class: `view view-${name}` }, ...children);
const h1 = (text: string) => h('h1', { tabindex: '-1' }, text);

function problem(title: string, message: string, back: HTMLElement): Page {
  return {
    title,
    el: view('problem', h1(title), h('div', { class: 'error', role: 'alert' }, h('p', { class: 'message' }, message)), h('p', null, back)),
  };
}

/** An organization: what it is, its relations and neighbours, and its events. */
export function orgPage(ex: Explorer, id: string): Page {
  const parsed = parse(ex, `player=${enc(id)}`);
  const p = ex.players.get(id);
  if (!parsed.ok || !p) {
    return problem(
      '企業・機関が見つかりません',
      parsed.ok ? `${id} はありません。` : parsed.message,
      h('a', { href: '/?view=network' }, '関係ネットワークから探す'),
    );
  }
  const events = eventsOf(ex, positions(ex, parsed.query, 'events').reverse());
  const relations = positions(ex, parsed.query, 'relations').map((i) => ex.dataset.relations[i]!);
  const other = (r: Relation) => (r.a === id ? r.b : r.a);
  const neighbours = [...new Set(relations.map(other))];
  const around = new Set([id, ...neighbours]);
  const ego = ex.dataset.relations.filter((r) => around.has(r.a) && around.has(r.b));
  const fact = (k: string, v: string) => [h('dt', null, k), h('dd', null, v)];
  return {
    title: p.nameJa,
    el: view(
      'org',
      h('p', { class: 'crumbs' }, h('a', { href: '/?view=network' }, '関係ネットワーク'), ' › 企業・機関'),
      h(
        'div',
        { class: 'org-head' },
        h(
          'div',
          { class: 'info' },
          h1(p.nameJa),
          h('p', { class: 'en', lang: 'en' }, p.id),
          h(
            'dl',
            { class: 'facts' },
            fact('種別', label(ex, 'category', p.category)),
            'sector' in p ? fact('業種', label(ex, 'sector', p.sector)) : null,
            fact('地域', label(ex, 'region', p.region)),
            p.members.length ? fact('グループ会社・旧名', p.members.join('、')) : null,
          ),
          p.description !== undefined ? h('p', { class: 'description' }, p.description || '説明はまだありません。') : null,
          h(
            'p',
            { class: 'links' },
            h('a', { href: `/?player=${enc(id)}` }, '年表でこの企業・機関に絞り込む'),
            ' ・ ',
            h('a', { href: `/api/chronicle?player=${enc(id)}` }, 'API で取得（JSON）'),
          ),
        ),
        neighbours.length
          ? h(
              'figure',
              { class: 'ego' },
              networkSvg(ex, [...around], ego, { title: `${p.nameJa} の周辺の関係図`, focus: id }),
              h('figcaption', null, `${p.nameJa} と、つながりのある企業・機関どうしの関係`),
            )
          : null,
      ),
      h(
        'div',
        { class: 'org-links' },
        h(
          'section',
          { 'aria-labelledby': 'org-relations' },
          h('h2', { id: 'org-relations' }, `関係（${relations.length} 件）`),
          relations.length
            ? h(
                'ul',
                { class: 'relations' },
                relations.map((r) =>
                  h(
                    'li',
                    null,
                    h('span', { class: `tag rel rel-${r.type}` }, label(ex, 'relation', r.type)),
                    ' ',
                    h('a', { href: orgHref(other(r)) }, ex.players.get(other(r))?.nameJa ?? other(r)),
                    `（${r.year}年）`,
                    h(
                      'span',
                      { class: 'label' },
                      r.label,
                      ' ',
                      h('a', { href: r.source, rel: 'external noopener noreferrer', class: 'source' }, '出典'),
                    ),
                  ),
                ),
              )
            : h('p', null, '記録された関係はまだありません。'),
        ),
        neighbours.length
          ? h(
              'section',
              { 'aria-labelledby': 'org-neighbours' },
              h('h2', { id: 'org-neighbours' }, `つながりのある企業・機関（${neighbours.length}）`),
              h(
                'ul',
                { class: 'neighbours' },
                neighbours.map((n) => {
                  const q = ex.players.get(n);
                  return h(
                    'li',
                    null,
                    h('span', { class: `swatch dot cat-${q?.category ?? 'none'}`, 'aria-hidden': 'true' }),
                    h('a', { href: orgHref(n) }, q?.nameJa ?? n),
                    `（${label(ex, 'category', q?.category)}）`,
                  );
                }),
              ),
            )
          : null,
      ),
      h(
        'section',
        { 'aria-labelledby': 'org-events' },
        h('h2', { id: 'org-events' }, `出来事（${events.length} 件、新しい順）`),
        events.length ? timeline(ex, events, 3) : h('p', null, '記録された出来事はまだありません。'),
      ),
    ),
  };
}

/** An initiative (Profile A): what it is and its history, oldest first. */
export function initiativePage(ex: Explorer, id: string): Page {
  const i = ex.initiatives.get(id);
  if (!i) {
    const known = [...ex.initiatives.keys()].join(', ');
    return problem(
      'イニシアティブが見つかりません',
      ex.initiatives.size
        ? `イニシアティブ "${id}" はありません。あるもの: ${known}。`
        : 'このプロファイルにはイニシアティブがありません。',
      h('a', { href: ex.initiatives.size ? '/?view=initiatives' : '/' }, ex.initiatives.size ? 'イニシアティブの一覧へ' : '年表へ'),
    );
  }
  const events = i.eventIds.map((e) => ex.dataset.events[ex.eventIndex.get(e)!]!).filter(Boolean);
  const players = [...new Set(events.flatMap((e) => e.players))];
  return {
    title: i.nameJa,
    el: view(
      'initiative',
      h('p', { class: 'crumbs' }, h('a', { href: '/?view=initiatives' }, 'イニシアティブ'), ' › ', i.id),
      h1(i.nameJa),
      i.aliases.length ? h('p', { class: 'aliases' }, '別名: ', i.aliases.join('、')) : null,
      h('p', { class: 'description' }, i.description || '説明はまだありません。'),
      events.length
        ? h('p', { class: 'span' }, `${formatDate(events[0]!.date)} 〜 ${formatDate(events.at(-1)!.date)}、${events.length} 件`)
        : null,
      h(
        'p',
        { class: 'players' },
        '関わる企業・機関: ',
        players.flatMap((pid, n) => [n ? '、' : '', h('a', { href: orgHref(pid) }, ex.players.get(pid)?.nameJa ?? pid)]),
      ),
      h(
        'section',
        { 'aria-labelledby': 'initiative-history' },
        h('h2', { id: 'initiative-history' }, '経緯（古い順）'),
        timeline(ex, events, 3),
      ),
    ),
  };
}

/** Every initiative, with its span and size. */
export function initiativesPage(ex: Explorer): Page {
  const list = [...ex.initiatives.values()].map((i) => {
    const dates = i.eventIds.map((e) => ex.dataset.events[ex.eventIndex.get(e)!]?.date ?? '');
    return h(
      'li',
      null,
      h('a', { href: initiativeHref(i.id) }, i.nameJa),
      h(
        'span',
        { class: 'span' },
        ` ${dates.length ? `${formatDate(dates[0]!)} 〜 ${formatDate(dates.at(-1)!)}` : ''}、${i.eventIds.length} 件`,
      ),
      i.description ? h('p', null, i.description) : null,
    );
  });
  return {
    title: 'イニシアティブ',
    el: view(
      'initiatives',
      h1('イニシアティブ'),
      h('p', { class: 'lead' }, '複数の出来事が続く施策・プロジェクト・制度です。名前を選ぶと経緯を年表で表示します。'),
      list.length ? h('ul', { class: 'initiative-list' }, list) : h('p', null, 'このプロファイルにはイニシアティブがありません。'),
    ),
  };
}

/** The relation network, filtered by the API's own parameters (topic, region, player, from, to). */
export function networkPage(ex: Explorer, route: Route, navigate: Navigate): Page {
  const parsed = parse(ex, route.filter);
  const topics = valuesOf(route, 'topic');
  const relationCount = (t: string) => ex.dataset.relations.filter((r) => r.topic === t).length;
  const topicFilter = h(
    'fieldset',
    { class: 'facet facet-topic' },
    h('legend', null, '分野で絞り込む'),
    ex.dataset.filters.topic.map((t) => {
      const id = `n-topic-${t}`;
      const input = h('input', {
        type: 'checkbox',
        id,
        checked: topics.includes(t),
        onchange: () => navigate(withParam(route, 'topic', input.checked ? [...topics, t] : topics.filter((x) => x !== t)), 'push'),
      });
      return h(
        'div',
        { class: 'check' },
        input,
        h('label', { for: id }, label(ex, 'topic', t), ' ', h('span', { class: 'n' }, `(${relationCount(t)})`)),
      );
    }),
  );
  const head = [
    h1('関係ネットワーク'),
    h(
      'p',
      { class: 'lead' },
      '企業・機関を点、提携・出資・共同実証などの関係を線で表します。点を選ぶとその企業・機関のページを開きます。分野で絞ると、その分野の関係だけを線にします（「複数分野」の関係は外れます）。',
    ),
    h('form', { class: 'filters inline', 'aria-label': '関係の絞り込み', onsubmit: (e: Event) => e.preventDefault() }, topicFilter),
  ];
  if (!parsed.ok) {
    return {
      title: '関係ネットワーク',
      el: view(
        'network',
        ...head,
        h(
          'div',
          { class: 'error', role: 'alert' },
          h('p', { class: 'message' }, parsed.message),
          h('p', null, h('a', { href: '/?view=network' }, '絞り込みを解除する')),
        ),
      ),
    };
  }
  const relations = positions(ex, parsed.query, 'relations').map((i) => ex.dataset.relations[i]!);
  const players = positions(ex, parsed.query, 'players').map((i) => ex.dataset.players[i]!);
  const categories = Object.keys(ex.dataset.labels.category ?? {}).filter((c) => players.some((p) => p.category === c));
  const types = Object.keys(ex.dataset.labels.relation ?? {}).filter((t) => relations.some((r) => r.type === t));
  const byCategory = categories.map((c) =>
    h(
      'li',
      null,
      h('span', { class: `swatch dot cat-${c}`, 'aria-hidden': 'true' }),
      label(ex, 'category', c),
      h(
        'ul',
        null,
        players.filter((p) => p.category === c).map((p) => h('li', null, h('a', { href: orgHref(p.id) }, p.nameJa))),
      ),
    ),
  );
  return {
    title: '関係ネットワーク',
    el: view(
      'network',
      ...head,
      h('p', { class: 'count', role: 'status' }, `企業・機関 ${players.length}、関係 ${relations.length} 件`),
      h(
        'figure',
        { class: 'network-figure' },
        networkSvg(
          ex,
          players.map((p) => p.id),
          relations,
          { title: '企業・機関の関係ネットワーク', positions: ex.layout },
        ),
        legend(ex, categories, types),
      ),
      h(
        'p',
        { class: 'api' },
        h(
          'a',
          { href: `/api/chronicle?include=relations,players${route.filter ? `&${route.filter}` : ''}` },
          'この図のデータを API で取得（JSON）',
        ),
      ),
      h(
        'details',
        { class: 'org-list' },
        h('summary', null, `企業・機関の一覧（${players.length}）`),
        h('ul', { class: 'by-category' }, byCategory),
      ),
    ),
  };
}

export function unknownPage(): Page {
  return problem(
    'ページが見つかりません',
    'この URL の表示はありません（view に使える値: network、initiatives）。',
    h('a', { href: hrefOf({ view: 'timeline', q: '', filter: '' }) }, '年表へ'),
  );
}
