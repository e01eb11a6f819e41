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

// The relation network's layout (d3-force), run to its end in one go. No DOM: the build runs it
// once over the whole network (public/network-layout.json), so the page draws the big picture
// without waiting; the page runs it for the small networks around one organization. d3-force
// starts from the same positions every time, so the same data gives the same picture.

export type Positions = Record<string, readonly [number, number]>;

/** A node's radius by its number of relations. */
export const radius = (degree: number) => 3.5 + 2.2 * Math.sqrt(degree);

interface Node extends SimulationNodeDatum {
  id: string;
  r: number;
}

export function forceLayout(ids: readonly string[], links: readonly { a: string; b: string }[]): Positions {
  const nodes: Node[] = ids.map((id) => ({ id, r: 0 }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const degree = new Map<string, number>();
  const edges: SimulationLinkDatum<Node>[] = [];
  for (const l of links) {
    const a = byId.get(l.a);
    const b = byId.get(l.b);
    if (!a || !b) continue;
    edges.push({ source: a, target: b });
    degree.set(a.id, (degree.get(a.id) ?? 0) + 1);
    degree.set(b.id, (degree.get(b.id) ?? 0) + 1);
  }
  for (const n of nodes) n.r = radius(degree.get(n.id) ?? 0);
  const small = nodes.length < 30;
  forceSimulation(nodes)
    .force('link', forceLink<Node, SimulationLinkDatum<Node>>(edges).distance(small ? 70 : 45))
    .force('charge', forceManyBody().strength(small ? -260 : -90))
    .force('x', forceX().strength(small ? 0.05 : 0.07))
    .force('y', forceY().strength(small ? 0.05 : 0.07))
    .force(
      'collide',
      forceCollide<Node>((n) => n.r + 2),
    )
    .stop()
    .tick(small ? 200 : 320);
  const round = (v: number) => Math.round(v * 10) / 10;
  return Object.fromEntries(nodes.map((n) => [n.id, [round(n.x!), round(n.y!)] as const]));
}
