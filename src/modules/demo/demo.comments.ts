import type { Trx } from '../../db/database.js';
import { createComment } from '../comments/index.js';
import type { DemoMemberKey } from './demo.records.js';
import type { addDemoTasks } from './demo.tasks.js';

/**
 * The demo lab's discussion: a thread on the contaminated Anthurium batch (a
 * mention of the manager, his reply, a follow-up) and a note on the Monstera
 * batch referring to its mother plant.
 */
interface DemoComment {
  key: string;
  by: DemoMemberKey;
  hoursAgo: number;
  explant: string;
  body: string;
  /** The comment (by key) this one replies to. */
  replyTo?: string;
  mentions?: DemoMemberKey[];
  /** A plant (by key) the comment refers to, with the label shown for it. */
  refersTo?: { plant: string; label: string };
}

const DEMO_COMMENTS: readonly DemoComment[] = [
  {
    key: 'halo',
    by: 'owner',
    hoursAgo: 30,
    explant: 'anthurium-b01',
    body: 'Milky halo around the explant base in vessel 3. Bacterial? @Luis Ortega can you take a look before the next transfer?',
    mentions: ['manager'],
    refersTo: { plant: 'anthurium', label: 'ANT-WAR mother plant' },
  },
  {
    key: 'halo-reply',
    by: 'manager',
    hoursAgo: 26,
    explant: 'anthurium-b01',
    replyTo: 'halo',
    body: 'Looks bacterial to me. Vessel 3 is out and logged; the other five go to quarantine until Friday.',
  },
  {
    key: 'halo-check',
    by: 'member',
    hoursAgo: 4,
    explant: 'anthurium-b01',
    replyTo: 'halo',
    body: 'Checked the remaining five vessels this morning: all clear so far.',
  },
  {
    key: 'monstera-split',
    by: 'member',
    hoursAgo: 20,
    explant: 'monstera-b01',
    body: 'Clusters are dense again - splitting into 24 vessels at the next subculture.',
    refersTo: { plant: 'monstera', label: 'Monstera Thai Constellation mother' },
  },
];

/** Adds the demo lab's comments through the same service as the API. */
export async function addDemoComments(
  trx: Trx,
  input: Parameters<typeof addDemoTasks>[1],
): Promise<void> {
  const { principals, now } = input;
  const ids: Record<string, string> = {};
  for (const spec of DEMO_COMMENTS) {
    const comment = await createComment(
      trx,
      principals[spec.by],
      {
        entity_type: 'explant',
        entity_id: input.explants[spec.explant]!,
        body: spec.body,
        ...(spec.replyTo === undefined ? {} : { parent_id: ids[spec.replyTo]! }),
        ...(spec.mentions === undefined
          ? {}
          : { mentioned_user_ids: spec.mentions.map((key) => principals[key].memberId!) }),
        ...(spec.refersTo === undefined
          ? {}
          : {
              references: [
                {
                  entity_type: 'plant' as const,
                  entity_id: input.plants[spec.refersTo.plant]!,
                  label: spec.refersTo.label,
                },
              ],
            }),
      },
      input.records,
      new Date(now.getTime() - spec.hoursAgo * 3_600_000).toISOString(),
    );
    ids[spec.key] = comment.id;
  }
}
