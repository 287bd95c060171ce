import type { Trx } from '../../db/database.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { CommentRecords } from '../comments/index.js';
import { recordDemandSignal } from '../demand/index.js';
import { createTask, placeTaskByHand, type CreateTaskInput } from '../tasks/index.js';
import type { DemoMemberKey } from './demo.records.js';

/**
 * The demo lab's task board and the store's demand per genus: open work linked
 * to its plants and explants, one task placed by hand, one already done.
 */
interface DemoTask {
  createdBy: DemoMemberKey;
  assignedTo?: DemoMemberKey;
  daysAgo: number;
  /** Days from now; fractions are hours. None: undated. */
  dueInDays?: number;
  plant?: string;
  explant?: string;
  fields: Omit<CreateTaskInput, 'due_date' | 'assigned_to' | 'entity_type' | 'entity_id'>;
  /** Placed by hand in the lab's app: kept against automatic orders. */
  placedByHand?: { priority: string; priority_rank: number };
}

const DEMO_TASKS: readonly DemoTask[] = [
  {
    createdBy: 'manager',
    assignedTo: 'member',
    daysAgo: 3,
    dueInDays: 2,
    explant: 'monstera-b01',
    fields: {
      title: 'Subculture MON-TC-B01 onto fresh MS + BAP',
      category: 'subculture',
      priority: 'high',
      genus: 'Monstera',
      notes: '24 vessels; split the densest clusters',
    },
  },
  {
    createdBy: 'member',
    assignedTo: 'member',
    daysAgo: 1,
    dueInDays: 1,
    fields: {
      title: "Prepare 2 L of MS medium for next week's transfers",
      category: 'media_prep',
      workflow_status: 'in_progress',
      is_all_day: true,
    },
  },
  {
    createdBy: 'owner',
    assignedTo: 'manager',
    daysAgo: 1,
    dueInDays: 0.25,
    explant: 'anthurium-b01',
    fields: {
      title: 'Check ANT-WAR-B01 vessels for bacterial spread',
      category: 'contamination',
      priority: 'urgent',
      genus: 'Anthurium',
    },
  },
  {
    createdBy: 'manager',
    daysAgo: 12,
    plant: 'banana',
    fields: {
      title: 'Move the Grand Nain plantlets to the greenhouse',
      category: 'acclimation',
      workflow_status: 'done',
      genus: 'Musa',
    },
  },
  {
    createdBy: 'owner',
    daysAgo: 6,
    plant: 'philodendron',
    fields: {
      title: 'Pink Princess stock review with the grower',
      category: 'other',
      category_label: 'Grower visit',
      genus: 'Philodendron',
    },
    placedByHand: { priority: 'medium', priority_rank: 1 },
  },
  {
    createdBy: 'member',
    daysAgo: 2,
    fields: {
      title: 'Deep-clean laminar flow hood 2',
      category: 'cleaning',
      workflow_status: 'backlog',
    },
  },
];

/** Store demand per genus over the last weeks: the latest of each genus is its current demand. */
const DEMO_DEMAND: readonly { genus: string; score: number; daysAgo: number }[] = [
  { genus: 'Monstera', score: 64, daysAgo: 21 },
  { genus: 'Monstera', score: 71, daysAgo: 14 },
  { genus: 'Monstera', score: 86, daysAgo: 7 },
  { genus: 'Alocasia', score: 42, daysAgo: 7 },
  { genus: 'Philodendron', score: 58, daysAgo: 7 },
  { genus: 'Musa', score: 12, daysAgo: 7 },
];

/** Adds the demo lab's tasks and demand signals through the same services as the API. */
export async function addDemoTasks(
  trx: Trx,
  input: {
    principals: Readonly<Record<DemoMemberKey, Principal>>;
    plants: Readonly<Record<string, string>>;
    explants: Readonly<Record<string, string>>;
    records: RecordLookup & CommentRecords;
    now: Date;
  },
): Promise<void> {
  const { principals, now } = input;
  const daysFromNow = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();
  for (const spec of DEMO_TASKS) {
    const principal = principals[spec.createdBy];
    const link =
      spec.plant !== undefined
        ? { entity_type: 'plant' as const, entity_id: input.plants[spec.plant]! }
        : spec.explant !== undefined
          ? { entity_type: 'explant' as const, entity_id: input.explants[spec.explant]! }
          : {};
    const task = await createTask(
      trx,
      principal,
      {
        ...spec.fields,
        ...link,
        ...(spec.dueInDays === undefined ? {} : { due_date: daysFromNow(spec.dueInDays) }),
        ...(spec.assignedTo === undefined
          ? {}
          : { assigned_to: principals[spec.assignedTo].memberId! }),
      },
      input.records,
      daysFromNow(-spec.daysAgo),
    );
    if (spec.placedByHand !== undefined) {
      await placeTaskByHand(
        trx,
        principal.workspaceId,
        task.id,
        spec.placedByHand,
        daysFromNow(-spec.daysAgo),
      );
    }
  }
  for (const signal of DEMO_DEMAND) {
    await recordDemandSignal(
      trx,
      principals.manager,
      {
        genus: signal.genus,
        demand_score: signal.score,
        source: 'Greenleaf web shop',
        source_type: 'orders_30d',
        observed_at: daysFromNow(-signal.daysAgo),
      },
      daysFromNow(-signal.daysAgo),
    );
  }
}
