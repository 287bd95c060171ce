import type { Trx } from '../../db/database.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import {
  completeSopRun,
  recordStepEvent,
  recordStepMeasurement,
  startSopRun,
} from '../sop-runs/index.js';
import type { DemoSopIds } from './demo.data.js';

/**
 * The demo lab's SOP runs, through the same services as the API: a subculture
 * run completed three days ago, and a media run in progress with step evidence
 * and a pH measurement.
 */
export async function runDemoSops(
  trx: Trx,
  input: {
    member: Principal;
    sopIds: DemoSopIds;
    plantId: string;
    records: RecordLookup;
    now: Date;
  },
): Promise<void> {
  const { member, sopIds, records } = input;
  const hoursAgo = (hours: number) =>
    new Date(input.now.getTime() - hours * 3_600_000).toISOString();
  const confirm = (runId: string, stepId: string, hours: number, payload = {}) =>
    recordStepEvent(
      trx,
      member,
      runId,
      stepId,
      { event_type: 'confirmed', payload, recorded_at: hoursAgo(hours) },
      hoursAgo(hours),
    );

  const subculture = await startSopRun(
    trx,
    member,
    { sop_id: sopIds.subculture, batch_code: 'MON-TC-B01-S07', plant_id: input.plantId },
    records,
    hoursAgo(74),
  );
  for (let step = 1; step <= 7; step++) {
    await confirm(subculture.id, `step-${step}`, 74 - step / 4);
  }
  await completeSopRun(
    trx,
    member,
    subculture.id,
    { outcome: 'completed', notes: '24 vessels to Growth Room A.' },
    hoursAgo(72),
  );

  const media = await startSopRun(
    trx,
    member,
    { sop_id: sopIds.media, batch_code: 'MS-BAP-2026-031' },
    records,
    hoursAgo(2),
  );
  await confirm(media.id, 'step-1', 1.9);
  await confirm(media.id, 'step-2', 1.8, { lot: 'MS-LOT-4471' });
  await recordStepEvent(
    trx,
    member,
    media.id,
    'step-3',
    { event_type: 'scanned', payload: { barcode: 'BAP-STOCK-07' }, recorded_at: hoursAgo(1.7) },
    hoursAgo(1.7),
  );
  await recordStepMeasurement(
    trx,
    member,
    media.id,
    'step-4',
    {
      metric: 'ph',
      value: 5.76,
      unit: 'pH',
      notes: 'Adjusted with 1 M KOH',
      recorded_at: hoursAgo(1.5),
    },
    hoursAgo(1.5),
  );
}
