import { hierarchy, tree, type HierarchyPointNode } from 'd3-hierarchy';
import { useLocation } from 'preact-iso';
import { recordHref } from '../../../ui/links';
import { words } from '../../../ui/words';
import { statusTone } from '../model';
import { strings } from '../strings';
import type { FamilyNode, FamilyPart, FamilyTree } from './model';

const BOX_W = 208;
const BOX_H = 68;
const GAP_X = 24;
const GAP_Y = 44;
const PAD = 8;

interface Placed {
  readonly node: FamilyNode | null;
  readonly x: number;
  readonly y: number;
  readonly self: boolean;
}

/** The tree laid out by d3's tidy tree, generation after generation down (ancestors up). */
function layout(part: FamilyTree, up: boolean) {
  const root = tree<FamilyTree>()
    .nodeSize([BOX_W + GAP_X, BOX_H + GAP_Y])
    .separation(() => 1)(hierarchy(part, (t) => t.children));
  const flip = (point: HierarchyPointNode<FamilyTree>) => ({
    x: point.x,
    y: up ? -point.y : point.y,
  });
  return {
    nodes: root.descendants().map((point) => ({ point, ...flip(point) })),
    links: root.links().map((link) => ({ from: flip(link.source), to: flip(link.target) })),
  };
}

const shorten = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/**
 * A family drawn as a graph, for a desk: the ancestors above the record, its
 * descendants below, each a box linking to its page; the second parents of pooled
 * explants joined by dashed lines. The rows beside it say the same for screen readers
 * and keyboards, so the drawing is hidden from them and its links take no focus.
 */
export function FamilyGraph(props: {
  ancestors: FamilyPart | null;
  descendants: FamilyPart;
  selfName: string;
}) {
  const { route } = useLocation();
  const down = layout(props.descendants.tree, false);
  const up = props.ancestors ? layout(props.ancestors.tree, true) : { nodes: [], links: [] };
  const placed: Placed[] = [
    ...down.nodes.map(({ point, x, y }) => ({
      node: point.data.node,
      x,
      y,
      self: point.depth === 0,
    })),
    ...up.nodes
      .filter(({ point }) => point.depth > 0)
      .map(({ point, x, y }) => ({ node: point.data.node, x, y, self: false })),
  ];
  const at = new Map(placed.flatMap((p) => (p.node ? [[p.node.id, p] as const] : [])));
  const extra = [props.descendants, props.ancestors].flatMap((part, i) =>
    part === null ? [] : crossLinks(part.tree, at, i === 1),
  );
  const xs = placed.map((p) => p.x);
  const ys = placed.map((p) => p.y);
  const minX = Math.min(...xs) - BOX_W / 2 - PAD;
  const minY = Math.min(...ys) - BOX_H / 2 - PAD;
  const width = Math.max(...xs) - Math.min(...xs) + BOX_W + 2 * PAD;
  const height = Math.max(...ys) - Math.min(...ys) + BOX_H + 2 * PAD;
  const edge = (from: { x: number; y: number }, to: { x: number; y: number }) => {
    // From the bottom of the upper box to the top of the lower one, bent halfway.
    const [a, b] = from.y < to.y ? [from, to] : [to, from];
    const y1 = a.y + BOX_H / 2;
    const y2 = b.y - BOX_H / 2;
    const mid = (y1 + y2) / 2;
    return `M${a.x},${y1} V${mid} H${b.x} V${y2}`;
  };
  return (
    <div class="family-graph">
      <svg
        aria-hidden="true"
        width={width}
        height={height}
        viewBox={`${minX} ${minY} ${width} ${height}`}
      >
        {[...down.links, ...up.links].map((link, i) => (
          <path key={`l${i}`} class="family-edge" d={edge(link.from, link.to)} />
        ))}
        {extra.map((link, i) => (
          <path key={`x${i}`} class="family-edge family-edge-merge" d={edge(link.from, link.to)} />
        ))}
        {placed.map((p) => (
          <GraphBox key={p.node?.id ?? 'self'} placed={p} selfName={props.selfName} route={route} />
        ))}
      </svg>
    </div>
  );
}

/** Dashed lines from a pooled explant's other parents (or children, upward). */
function crossLinks(part: FamilyTree, at: Map<string, Placed>, up: boolean) {
  const links: { from: Placed; to: Placed }[] = [];
  const walk = (t: FamilyTree) => {
    for (const child of t.children) {
      const to = child.node ? at.get(child.node.id) : undefined;
      for (const other of child.alsoFrom) {
        const from = at.get(other.id);
        if (from && to) links.push(up ? { from: to, to: from } : { from, to });
      }
      walk(child);
    }
  };
  walk(part);
  return links;
}

function GraphBox(props: { placed: Placed; selfName: string; route: (url: string) => void }) {
  const { node, x, y, self } = props.placed;
  const left = x - BOX_W / 2;
  const top = y - BOX_H / 2;
  const f = strings.family;
  const box = (
    <g class={self ? 'family-box family-self' : 'family-box'}>
      <rect x={left} y={top} width={BOX_W} height={BOX_H} rx={6} />
      <rect
        class={`family-tone family-tone-${node ? statusTone(node.status) : 'ok'}`}
        x={left}
        y={top}
        width={6}
        height={BOX_H}
        rx={3}
      />
      <text class="family-box-title" x={left + 14} y={top + 20}>
        {shorten(node ? (node.label ?? f.unlabelled) : props.selfName, 22)}
      </text>
      {node === null && (
        <text class="family-box-line" x={left + 14} y={top + 40}>
          {f.self.plant}
        </text>
      )}
      {node && (
        <>
          <text class="family-box-line" x={left + 14} y={top + 40}>
            {shorten(`${node.stage_name ?? node.stage ?? f.noStage} · ${words(node.status)}`, 26)}
          </text>
          <text class="family-box-line" x={left + 14} y={top + 58}>
            {shorten(f.counts(node.current_count, node.plantlet_count), 26)}
          </text>
        </>
      )}
    </g>
  );
  if (node === null || self) return box;
  const href = recordHref.explant(node.id);
  return (
    <a
      href={href}
      tabindex={-1}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        props.route(href);
      }}
    >
      {box}
    </a>
  );
}
