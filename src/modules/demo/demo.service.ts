import type { Trx } from '../../db/database.js';
import { effectiveFeatures, SCOPES, type Role } from '../../kernel/access.js';
import type { Principal } from '../../kernel/principal.js';
import { createContamination, resolveContamination } from '../contaminations/index.js';
import { createExplant } from '../explants/index.js';
import { addMember, createApiKey, createWorkspace } from '../identity/index.js';
import { createPlant } from '../plants/index.js';
import { advanceStage } from '../stages/index.js';
import { recordEquipmentEvent } from '../equipment/index.js';
import { createTransfer, type TransferRecords } from '../transfers/index.js';
import type { CommentRecords } from '../comments/index.js';
import { addDemoDevices } from './demo.devices.js';
import { DEMO_EQUIPMENT_EVENTS } from './demo.equipment.js';
import { importDemoLibrary, importDemoSales } from './demo.data.js';
import { addDemoRecipesAndScans } from './demo.recipes.js';
import { runDemoSops } from './demo.runs.js';
import {
  DEMO_CONTAMINATIONS,
  DEMO_EXPLANTS,
  DEMO_PLANTS,
  type DemoMemberKey,
  type DemoMove,
} from './demo.records.js';
import { addDemoPhotos, type DemoPhotos } from './demo.photos.js';
import { addDemoTasks } from './demo.tasks.js';
import { addDemoComments } from './demo.comments.js';

export const DEMO_LAB_NAME = 'Greenleaf Tissue Culture Lab (demo)';

const DEMO_MEMBERS: Readonly<Record<DemoMemberKey, { name: string; email: string; role: Role }>> = {
  owner: { name: 'Maya Chen', email: 'maya.chen@greenleaf.example', role: 'owner' },
  manager: { name: 'Luis Ortega', email: 'luis.ortega@greenleaf.example', role: 'manager' },
  member: { name: 'Priya Natarajan', email: 'priya.natarajan@greenleaf.example', role: 'member' },
};

/** Acting as a member, the way one of their keys would, for the services that take a principal. */
function actingAs(workspaceId: string, memberId: string, role: Role): Principal {
  return {
    kind: 'key',
    credentialId: memberId,
    workspaceId,
    plan: 'teams',
    features: effectiveFeatures('teams', null),
    memberId,
    role,
    deviceId: null,
    scopes: SCOPES,
    key: null,
  };
}

/**
 * Creates a realistic plant tissue culture lab on the teams plan, all in the
 * caller's one transaction (a failure leaves nothing behind): three members,
 * rooms, plants and explants with stage history (through the same services as
 * the API, so change history exists), SOPs, equipment with its calibration and
 * maintenance history (through the equipment event service), labels, prices and
 * a month of store order lines (through the import), transfers, contaminations,
 * tasks, comments (a thread with replies and a mention), media recipes, a label
 * scan, SOP runs (one completed, one in progress) and, given a blob store, three
 * photos. Returns a new owner key with every scope.
 */
export async function createDemoLab(
  trx: Trx,
  records: TransferRecords & CommentRecords,
  now: Date = new Date(),
  photos: DemoPhotos | null = null,
): Promise<{ workspace_id: string; key: string }> {
  const at = (daysAgo: number) =>
    new Date(now.getTime() - daysAgo * 86_400_000 - 3 * 3_600_000).toISOString();
  const nowText = now.toISOString();
  const workspace = await createWorkspace(trx, { name: DEMO_LAB_NAME, plan: 'teams', type: 'lab' });
  const workspaceId = workspace.id;
  const principals = {} as Record<DemoMemberKey, Principal>;
  for (const [key, member] of Object.entries(DEMO_MEMBERS) as [
    DemoMemberKey,
    typeof DEMO_MEMBERS.owner,
  ][]) {
    const row = await addMember(trx, { workspaceId, ...member });
    principals[key] = actingAs(workspaceId, row.id, member.role);
  }
  const { rooms, sopIds, equipment } = await importDemoLibrary(trx, workspaceId, records, now);

  const move = async (
    principal: Principal,
    target: { plant_id: string } | { explant_id: string },
    step: DemoMove,
  ) =>
    advanceStage(
      trx,
      principal,
      {
        ...target,
        stage: step.stage,
        entered_on: at(step.daysAgo),
        ...(step.room ? { room_id: rooms[step.room] } : {}),
        ...(step.notes ? { notes: step.notes } : {}),
      },
      records,
      nowText,
    );

  const plants: Record<string, string> = {};
  for (const spec of DEMO_PLANTS) {
    const principal = principals[spec.createdBy];
    const { plant } = await createPlant(
      trx,
      principal,
      {
        species: spec.species,
        common_name: spec.commonName,
        genus: spec.genus,
        family: spec.family,
        cultivar: spec.cultivar,
        source: spec.source,
        external_id: spec.externalId,
        initial_stage: spec.initialStage,
        custom_fields: spec.customFields,
      },
      at(spec.daysAgo),
    );
    plants[spec.key] = plant.id;
    for (const step of spec.moves) await move(principal, { plant_id: plant.id }, step);
  }

  const explants: Record<string, string> = {};
  for (const spec of DEMO_EXPLANTS) {
    const principal = principals[spec.createdBy];
    // The first move is the stage the explant starts in.
    const [first, ...later] = spec.moves;
    const explant = await createExplant(
      trx,
      principal,
      {
        label: spec.label,
        plant_id: plants[spec.plant]!,
        batch_number: spec.batchNumber,
        status: spec.status,
        initial_count: spec.initialCount,
        custom_fields: spec.customFields,
        ...(first === undefined ? {} : { initial_stage: first.stage }),
        ...(first?.room === undefined ? {} : { room_id: rooms[first.room] }),
      },
      at(first?.daysAgo ?? spec.daysAgo),
      records,
    );
    explants[spec.key] = explant.id;
    for (const step of later) await move(principal, { explant_id: explant.id }, step);
    for (const transfer of spec.transfers) {
      await createTransfer(
        trx,
        principals[transfer.by],
        {
          explant_id: explant.id,
          transfer_date: at(transfer.daysAgo),
          from_location: transfer.from,
          to_location: transfer.to,
          vessel_count: transfer.vesselCount,
          ...(transfer.plantletCount === undefined
            ? {}
            : { plantlet_count: transfer.plantletCount }),
          ...(transfer.notes ? { notes: transfer.notes } : {}),
        },
        records,
        at(transfer.daysAgo),
      );
    }
  }

  for (const step of DEMO_EQUIPMENT_EVENTS) {
    await recordEquipmentEvent(
      trx,
      principals[step.by],
      equipment[step.equipment],
      step.event(at, explants),
      records,
      nowText,
    );
  }

  const contaminations: string[] = [];
  for (const spec of DEMO_CONTAMINATIONS) {
    const contamination = await createContamination(
      trx,
      principals[spec.loggedBy],
      {
        explant_id: explants[spec.explant]!,
        type: spec.type,
        issue: spec.issue,
        severity: spec.severity,
        suspected_source: spec.suspectedSource,
        observed_at: at(spec.daysAgo),
        vessels_affected: spec.vesselsAffected,
        affected_vessel_markings: spec.markings,
        notes: spec.notes,
      },
      records,
      at(spec.daysAgo),
    );
    contaminations.push(contamination.id);
    if (spec.resolution !== undefined) {
      const { outcome, notes, by, daysAgo } = spec.resolution;
      await resolveContamination(
        trx,
        principals[by],
        contamination.id,
        { outcome, notes, resolved_at: at(daysAgo) },
        at(daysAgo),
      );
    }
  }

  await addDemoTasks(trx, { principals, plants, explants, records, now });
  await addDemoComments(trx, { principals, plants, explants, records, now });
  await runDemoSops(trx, {
    member: principals.member,
    sopIds,
    plantId: plants.monstera!,
    records,
    now,
  });

  await importDemoSales(trx, workspaceId, { plants, explants }, records, now);
  await addDemoRecipesAndScans(trx, { principals, explants, records, at });
  if (photos !== null) {
    await addDemoPhotos(trx, photos, principals.member, [
      {
        target: 'plant',
        targetId: plants.monstera!,
        fileName: 'monstera-mother.png',
        caption: 'Mother plant before the spring harvest of nodes',
        top: [190, 220, 170],
        bottom: [40, 110, 50],
        takenAt: at(20),
      },
      {
        target: 'explant',
        targetId: explants['monstera-b01']!,
        fileName: 'mon-tc-b01-vessel.png',
        caption: 'MON-TC-B01, vessel 3: shoots after the second transfer',
        top: [235, 240, 225],
        bottom: [120, 170, 90],
        takenAt: at(4),
      },
      {
        target: 'contamination',
        targetId: contaminations[0]!,
        fileName: 'bacterial-halo.png',
        caption: 'Milky halo around the base of the explant',
        top: [245, 240, 220],
        bottom: [200, 190, 150],
        takenAt: at(2),
      },
    ]);
  }

  await addDemoDevices(trx, { owner: principals.owner, rooms, now });

  const key = await createApiKey(trx, {
    memberId: principals.owner.memberId!,
    name: 'Demo key',
    scopes: SCOPES,
  });
  return { workspace_id: workspaceId, key: key.key };
}
