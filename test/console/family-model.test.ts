import { describe, expect, it } from 'vitest';
import {
  evenly,
  familyPart,
  familyRows,
  type FamilyNode,
  type FamilyTree,
  type Lineage,
} from '../../web/src/features/records/family/model.js';

const node = (id: string, generation: number): FamilyNode => ({
  id,
  label: id,
  stage: 'multiplication',
  stage_name: 'Multiplication',
  status: 'active',
  generation,
  plant_id: null,
  current_count: 1,
  plantlet_count: null,
  created_at: '2026-11-01T00:00:00.000Z',
  archived_at: null,
});
const edge = (parent: string, child: string) => ({
  parent_id: parent,
  child_id: child,
  kind: 'split',
  transfer_id: null,
  occurred_at: '2026-11-01T00:00:00.000Z',
  recorded_by: null,
  room_id: null,
  media_batch_id: null,
});
/** The ids of a tree, nested as it is. */
const shape = (tree: FamilyTree): unknown =>
  tree.children.length === 0
    ? (tree.node?.id ?? 'root')
    : { [tree.node?.id ?? 'root']: tree.children.map(shape) };

/** How the console turns a lineage answer into the family it shows. */
describe("an explant's family as the console shows it", () => {
  // M split into A and B; A into A1, A2; A2 and B pooled into P; P into P1.
  const lineage: Lineage = {
    nodes: [
      node('M', 0),
      node('A', 1),
      node('B', 1),
      node('A1', 2),
      node('A2', 2),
      node('P', 3),
      node('P1', 4),
    ],
    edges: [
      edge('M', 'A'),
      edge('M', 'B'),
      edge('A', 'A1'),
      edge('A', 'A2'),
      edge('A2', 'P'),
      edge('B', 'P'),
      edge('P', 'P1'),
    ],
  };

  it('hangs each explant under its first parent, naming a pooled one’s others', () => {
    const part = familyPart(lineage, 'descendants', 4, 100);
    expect(shape(part.tree)).toEqual({ M: [{ A: ['A1', { A2: [{ P: ['P1'] }] }] }, 'B'] });
    const rows = familyRows(null, part, lineage.nodes[0]!);
    expect(rows.map((r) => [r.node?.id, r.generation, r.indent])).toEqual([
      ['M', 0, 0],
      ['A', 1, 1],
      ['A1', 2, 2],
      ['A2', 2, 2],
      ['P', 3, 3],
      ['P1', 4, 4],
      ['B', 1, 1],
    ]);
    // P is shown once, under A2 (a generation nearer than B), and names B beside it.
    expect(rows.find((r) => r.node?.id === 'P')!.alsoFrom.map((n) => n.id)).toEqual(['B']);
    expect(part).toMatchObject({ generations: 4, beyond: 0, hidden: 0 });
  });

  it('names the other parents of a pooled explant one generation up', () => {
    const pooled: Lineage = {
      nodes: [node('M', 0), node('A', 1), node('B', 1), node('P', 2)],
      edges: [edge('M', 'A'), edge('M', 'B'), edge('A', 'P'), edge('B', 'P')],
    };
    const rows = familyRows(null, familyPart(pooled, 'descendants', 3, 100), pooled.nodes[0]!);
    expect(rows.map((r) => r.node?.id)).toEqual(['M', 'A', 'P', 'B']);
    expect(rows[2]!.alsoFrom.map((n) => n.id)).toEqual(['B']);
  });

  it('shows so many generations and says how many explants lie beyond them', () => {
    // Read with one generation more than shown: that one only tells what is beyond.
    const part = familyPart(lineage, 'descendants', 3, 100);
    expect(shape(part.tree)).toEqual({ M: [{ A: ['A1', { A2: ['P'] }] }, 'B'] });
    expect(part).toMatchObject({ generations: 3, beyond: 1, hidden: 0 });
  });

  it('caps the explants shown, nearest generations first, and counts the rest', () => {
    const part = familyPart(lineage, 'descendants', 4, 4);
    expect(shape(part.tree)).toEqual({ M: [{ A: ['A1'] }, 'B'] });
    expect(part).toMatchObject({ generations: 2, beyond: 0, hidden: 3 });
  });

  it('lists ancestors a generation a row, the furthest first, above the explant', () => {
    // Asked from P upward: its parents A2 and B, their parents A and M.
    const up: Lineage = {
      nodes: [node('P', 0), node('A2', 1), node('B', 1), node('A', 2), node('M', 2)],
      edges: [edge('A2', 'P'), edge('B', 'P'), edge('A', 'A2'), edge('M', 'B')],
    };
    const ancestors = familyPart(up, 'ancestors', 3, 100);
    const down = familyPart({ nodes: [node('P', 0)], edges: [] }, 'descendants', 3, 100);
    const rows = familyRows(ancestors, down, up.nodes[0]!);
    expect(rows.map((r) => [r.node?.id, r.generation, r.indent])).toEqual([
      ['A', -2, 0],
      ['M', -2, 0],
      ['A2', -1, 1],
      ['B', -1, 1],
      ['P', 0, 2],
    ]);
  });

  it("starts a plant's family at the plant: its explants are generation 1", () => {
    const plant: Lineage = {
      nodes: [node('E', 1), node('F', 1), node('E1', 2)],
      edges: [edge('E', 'E1')],
    };
    const part = familyPart(plant, 'descendants', 3, 100, true);
    expect(shape(part.tree)).toEqual({ root: [{ E: ['E1'] }, 'F'] });
    const rows = familyRows(null, part, null);
    expect(rows.map((r) => [r.node?.id ?? 'plant', r.indent])).toEqual([
      ['plant', 0],
      ['E', 1],
      ['E1', 2],
      ['F', 1],
    ]);
  });

  it('shares a split’s vessels out evenly, the first daughters taking what is left over', () => {
    expect(evenly(24, 3)).toEqual([8, 8, 8]);
    expect(evenly(8, 3)).toEqual([3, 3, 2]);
    expect(evenly(5, 5)).toEqual([1, 1, 1, 1, 1]);
  });
});
