import {
  forceCollide,
  forceLink,
  forceManyBody,
  forceSimulation,
  forceX,
  forceY,
  type SimulationLinkDatum,
  type SimulationNodeDatum,
} from 'd3-force';
import type { Relation } from '../functions/chronicle/dataset.js';
import { label, type Explorer } from './data.js';
import { h, svg } from './dom.js';
import { orgHref } from './route.js';

interface Node extends SimulationNodeDatum {
  id: string;
  degree: number;
  r: number;
}

type Link = SimulationLinkDatum<Node> & { relation: Relation };

/**
 * The relation network of these players as an SVG: one node per player, coloured by category, one
 * line per relation between two of them, coloured by type. The layout (d3-force) runs to its end
 * before anything is drawn, so the picture is static and cheap to keep on screen; d3-force starts
 * from the same positions every time, so the same data gives the same picture.
 */
export function networkSvg(
  ex: Explorer,
  playerIds: readonly string[],
  relations: readonly Relation[],
  opts: { title: string; focus?: string },
): SVGSVGElement {
  const nodes: Node[] = playerIds.map((id) => ({ id, degree: 0, r: 4 }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const links: Link[] = [];
  for (const r of relations) {
    const a = byId.get(r.a);
    const b = byId.get(r.b);
    if (!a || !b) continue;
    a.degree++;
    b.degree++;
    links.push({ source: a, target: b, relation: r });
  }
  for (const n of nodes) n.r = 3.5 + 2.2 * Math.sqrt(n.degree);
  const small = nodes.length < 30;
  forceSimulation(nodes)
    .force('link', forceLink<Node, Link>(links).distance(small ? 70 : 45))
    .force('charge', forceManyBody().strength(small ? -260 : -90))
    .force('x', forceX().strength(small ? 0.05 : 0.07))
    .force('y', forceY().strength(small ? 0.05 : 0.07))
    .force(
      'collide',
      forceCollide<Node>((n) => n.r + 2),
    )
    .stop()
    .tick(small ? 200 : 320);

  const pad = 24;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const n of nodes) {
    x0 = Math.min(x0, n.x! - n.r);
    y0 = Math.min(y0, n.y! - n.r);
    x1 = Math.max(x1, n.x! + n.r);
    y1 = Math.max(y1, n.y! + n.r);
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
    if (named.has(n.id)) x1 = Math.max(x1, n.x! + n.r + 2 + [...(ex.players.get(n.id)?.nameJa ?? n.id)].length * fontSize);
  }
  const width = x1 - x0 + 2 * pad;
  const height = y1 - y0 + 2 * pad;
  const fixed = (v: number) => Math.round(v * 10) / 10;

  const edges = links.map((l) => {
    const s = l.source as Node;
    const t = l.target as Node;
    return svg(
      'line',
      { class: `edge rel-${l.relation.type}`, x1: fixed(s.x!), y1: fixed(s.y!), x2: fixed(t.x!), y2: fixed(t.y!) },
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
      svg('circle', { cx: fixed(n.x!), cy: fixed(n.y!), r: fixed(n.r) }),
      svg('text', { x: fixed(n.x! + n.r + 2), y: fixed(n.y! + fontSize / 3), 'font-size': fixed(fontSize), 'aria-hidden': 'true' }, name),
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
