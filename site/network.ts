import type { Relation } from '../functions/chronicle/dataset.js';
import { label, type Explorer } from './data.js';
import { h, svg } from './dom.js';
import { forceLayout, radius, type Positions } from './layout.js';
import { orgHref } from './route.js';

interface Node {
  id: string;
  degree: number;
  r: number;
  x: number;
  y: number;
}

/**
 * The relation network of these players as an SVG: one node per player, coloured by category, one
 * line per relation between two of them, coloured by type. Positions come from `positions` (the
 * build's layout of the whole network, so a filter keeps every node in its place) when it places
 * every node, or from a layout run here. The picture is static and cheap to keep on screen.
 */
export function networkSvg(
  ex: Explorer,
  playerIds: readonly string[],
  relations: readonly Relation[],
  opts: { title: string; focus?: string; positions?: Positions },
): SVGSVGElement {
  const ids = new Set(playerIds);
  const shown = relations.filter((r) => ids.has(r.a) && ids.has(r.b));
  const placed = opts.positions && playerIds.every((id) => opts.positions![id]) ? opts.positions : forceLayout(playerIds, shown);
  const nodes: Node[] = playerIds.map((id) => ({ id, degree: 0, r: 0, x: placed[id]![0], y: placed[id]![1] }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const links = shown.map((relation) => ({ source: byId.get(relation.a)!, target: byId.get(relation.b)!, relation }));
  for (const l of links) {
    l.source.degree++;
    l.target.degree++;
  }
  for (const n of nodes) n.r = radius(n.degree);
  const small = nodes.length < 30;

  const pad = 24;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const n of nodes) {
    x0 = Math.min(x0, n.x - n.r);
    y0 = Math.min(y0, n.y - n.r);
    x1 = Math.max(x1, n.x + n.r);
    y1 = Math.max(y1, n.y + n.r);
  }
  if (!nodes.length) [x0, y0, x1, y1] = [0, 0, 100, 60];
  const fontSize = Math.max(9, Math.min(14, Math.max(x1 - x0, y1 - y0) / 70));
  // Names beside the best-connected nodes (and the focused one); every other name shows on hover and focus.
  const named = new Set(
    [...nodes]
      .sort((a, b) => b.degree - a.degree)
      .slice(0, small ? nodes.length : 18)
      .filter((n) => n.degree > 0 || small)
      .map((n) => n.id),
  );
  if (opts.focus) named.add(opts.focus);
  // Room for the names drawn to the right of their nodes.
  for (const n of nodes) {
    if (named.has(n.id)) x1 = Math.max(x1, n.x + n.r + 2 + [...(ex.players.get(n.id)?.nameJa ?? n.id)].length * fontSize);
  }
  const width = x1 - x0 + 2 * pad;
  const height = y1 - y0 + 2 * pad;
  const fixed = (v: number) => Math.round(v * 10) / 10;

  const edges = links.map((l) => {
    const s = l.source;
    const t = l.target;
    return svg(
      'line',
      { class: `edge rel-${l.relation.type}`, x1: fixed(s.x), y1: fixed(s.y), x2: fixed(t.x), y2: fixed(t.y) },
      svg(
        'title',
        null,
        `${ex.players.get(s.id)?.nameJa ?? s.id} — ${ex.players.get(t.id)?.nameJa ?? t.id}: ${label(ex, 'relation', l.relation.type)}（${l.relation.year}）`,
      ),
    );
  });
  const circles = nodes.map((n) => {
    const p = ex.players.get(n.id);
    const name = p?.nameJa ?? n.id;
    const text = `${name}（${label(ex, 'category', p?.category)}、関係 ${n.degree} 件）`;
    return svg(
      'a',
      {
        class: `node cat-${p?.category ?? 'none'}${n.id === opts.focus ? ' focus' : ''}${named.has(n.id) ? ' named' : ''}`,
        href: orgHref(n.id),
        'aria-label': text,
        'data-id': n.id,
      },
      svg('title', null, text),
      svg('circle', { cx: fixed(n.x), cy: fixed(n.y), r: fixed(n.r) }),
      svg('text', { x: fixed(n.x + n.r + 2), y: fixed(n.y + fontSize / 3), 'font-size': fixed(fontSize), 'aria-hidden': 'true' }, name),
    );
  });
  return svg(
    'svg',
    {
      class: 'network',
      viewBox: `${fixed(x0 - pad)} ${fixed(y0 - pad)} ${fixed(width)} ${fixed(height)}`,
      role: 'group',
      'aria-label': opts.title,
      'data-nodes': nodes.length,
      'data-edges': links.length,
    },
    svg('g', { class: 'edges', 'aria-hidden': 'true' }, edges),
    svg('g', { class: 'nodes' }, circles),
  );
}

/** The colour keys: categories of nodes and types of lines that appear. */
export function legend(ex: Explorer, categories: Iterable<string>, types: Iterable<string>): HTMLElement {
  return h(
    'div',
    { class: 'legend' },
    h('p', { class: 'k' }, '点の色（種別）'),
    h(
      'ul',
      null,
      [...categories].map((c) =>
        h('li', null, h('span', { class: `swatch dot cat-${c}`, 'aria-hidden': 'true' }), label(ex, 'category', c)),
      ),
    ),
    h('p', { class: 'k' }, '線の色（関係の種類）'),
    h(
      'ul',
      null,
      [...types].map((t) => h('li', null, h('span', { class: `swatch line rel-${t}`, 'aria-hidden': 'true' }), label(ex, 'relation', t))),
    ),
  );
}
