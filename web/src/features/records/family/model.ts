import type { operations } from '../../../api/schema.js';

export type Lineage =
  operations['getExplantLineage']['responses'][200]['content']['application/json']['data'];
export type FamilyNode = Lineage['nodes'][number];

/**
 * A family as a tree from the record asked about: each explant under the first of its
 * parents reached (nearest generation first, as the API orders them); the other
 * parents of a pooled explant are named in `alsoFrom`, not repeated.
 */
export interface FamilyTree {
  readonly node: FamilyNode | null;
  readonly children: FamilyTree[];
  readonly alsoFrom: readonly FamilyNode[];
}

/** What is shown of one direction of a family, and what was left out. */
export interface FamilyPart {
  readonly tree: FamilyTree;
  /** The deepest generation shown (ancestors: counted upward). */
  readonly generations: number;
  /** Explants beyond the generations shown (known from one generation more). */
  readonly beyond: number;
  /** Explants within the generations shown but past the row cap. */
  readonly hidden: number;
}

/**
 * The tree of one direction of a family read with one generation more than shown
 * (`shown + 1`): that extra generation only says whether there is more. `direction`
 * says which way the edges are walked; `rows` caps the explants kept (breadth first,
 * so the nearest generations are kept whole).
 */
export function familyPart(
  lineage: Lineage,
  direction: 'ancestors' | 'descendants',
  shown: number,
  rows: number,
  /** A plant's family: generation 1 hangs from the plant, which is no node. */
  plantRoot = false,
): FamilyPart {
  const byId = new Map(lineage.nodes.map((node) => [node.id, node]));
  const kept = lineage.nodes.filter((node) => node.generation <= shown).slice(0, rows + 1);
  const keptIds = new Set(kept.map((node) => node.id));
  const beyond = lineage.nodes.filter((node) => node.generation > shown).length;
  const hidden = lineage.nodes.length - beyond - kept.length;

  // Edges walked outward: a descendant's parent, an ancestor's child, comes first.
  const links = lineage.edges.map((edge) =>
    direction === 'descendants'
      ? { from: edge.parent_id, to: edge.child_id }
      : { from: edge.child_id, to: edge.parent_id },
  );
  const trees = new Map<string, FamilyTree>();
  const treeOf = (node: FamilyNode): FamilyTree => {
    const tree = { node, children: [], alsoFrom: [] };
    trees.set(node.id, tree);
    return tree;
  };
  const root: FamilyTree = plantRoot
    ? { node: null, children: [], alsoFrom: [] }
    : treeOf(kept.find((node) => node.generation === 0)!);
  for (const node of kept) {
    if (node.generation === 0) continue;
    const tree = treeOf(node);
    const from = links
      .filter((link) => link.to === node.id && keptIds.has(link.from))
      .map((link) => byId.get(link.from)!);
    // Under a parent one generation nearer; any other is named beside it.
    const first = from.find((other) => other.generation === node.generation - 1);
    const parent = first === undefined ? root : (trees.get(first.id) ?? root);
    parent.children.push(tree);
    (tree.alsoFrom as FamilyNode[]).push(...from.filter((other) => other !== first));
  }
  // Kept one past the cap to tell whether anything was cut: that one is not shown.
  if (kept.length > rows) dropLast(root, kept[rows]!.id);
  const generations = Math.max(0, ...kept.slice(0, rows).map((node) => node.generation));
  return { tree: root, generations, beyond, hidden: hidden + (kept.length > rows ? 1 : 0) };
}

function dropLast(tree: FamilyTree, id: string): boolean {
  const at = tree.children.findIndex((child) => child.node?.id === id);
  if (at >= 0) {
    tree.children.splice(at, 1);
    return true;
  }
  return tree.children.some((child) => dropLast(child, id));
}

/** One indented row of a family on a phone. */
export interface FamilyRow {
  readonly node: FamilyNode | null;
  /** Generations from the record: parents -1, children 1. */
  readonly generation: number;
  readonly indent: number;
  readonly alsoFrom: readonly FamilyNode[];
}

/**
 * A family as indented rows: the ancestors a generation a row, the furthest first,
 * then the record, then its descendants each under the one it came from.
 */
export function familyRows(
  ancestors: FamilyPart | null,
  descendants: FamilyPart,
  self: FamilyNode | null,
): FamilyRow[] {
  const rows: FamilyRow[] = [];
  const up = ancestors?.generations ?? 0;
  if (ancestors !== null) {
    const byGeneration: FamilyTree[][] = [];
    const collect = (tree: FamilyTree, generation: number) => {
      for (const child of tree.children) {
        (byGeneration[generation] ??= []).push(child);
        collect(child, generation + 1);
      }
    };
    collect(ancestors.tree, 1);
    for (let generation = byGeneration.length - 1; generation >= 1; generation--) {
      for (const tree of byGeneration[generation] ?? []) {
        rows.push({
          node: tree.node,
          generation: -generation,
          indent: up - generation,
          alsoFrom: tree.alsoFrom,
        });
      }
    }
  }
  rows.push({ node: self, generation: 0, indent: up, alsoFrom: [] });
  const walk = (tree: FamilyTree, generation: number) => {
    for (const child of tree.children) {
      rows.push({
        node: child.node,
        generation,
        indent: up + generation,
        alsoFrom: child.alsoFrom,
      });
      walk(child, generation + 1);
    }
  };
  walk(descendants.tree, 1);
  return rows;
}

/** `total` shared out over `n`, the first ones taking what is left over (a split's vessels). */
export const evenly = (total: number, n: number): number[] =>
  Array.from({ length: n }, (_, i) => Math.floor(total / n) + (i < total % n ? 1 : 0));
