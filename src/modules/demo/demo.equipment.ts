import type { EquipmentEventInput } from '../equipment/index.js';
import type { DemoMemberKey } from './demo.records.js';

/*
 * The demo lab's equipment history: calibrations, maintenance, a fault and its
 * service, and the hood used for explant transfers. Recorded through the same
 * service as POST /equipment/{id}/events, oldest first, so the equipment's
 * calibration and maintenance dates come from them.
 */

export type DemoEquipmentKey =
  'autoclave' | 'hood' | 'balance' | 'phMeter' | 'lightRack' | 'oldCooker';

type At = (daysAgo: number) => string;

export interface DemoEquipmentEvent {
  equipment: DemoEquipmentKey;
  by: DemoMemberKey;
  event: (at: At, explants: Record<string, string>) => EquipmentEventInput;
}

export const DEMO_EQUIPMENT_EVENTS: readonly DemoEquipmentEvent[] = [
  {
    equipment: 'balance',
    by: 'manager',
    event: (at) => ({
      kind: 'calibration',
      performed_at: at(95),
      performed_by_name: 'Luis Ortega',
      result_summary: 'Internal calibration; 100 g check weight within 0.2 mg.',
      next_due_at: at(5),
    }),
  },
  {
    equipment: 'autoclave',
    by: 'manager',
    event: (at) => ({
      kind: 'preventive_maintenance',
      performed_at: at(60),
      performed_by_name: 'Luis Ortega',
      result_summary: 'Drained and descaled the chamber; cleaned the door gasket.',
      next_due_at: at(-120),
    }),
  },
  {
    equipment: 'hood',
    by: 'member',
    event: (at, explants) => ({
      kind: 'used',
      subject_type: 'explant_transfer',
      subject_id: explants['monstera-b01']!,
      subject_label: 'MON-TC-B01 third subculture',
      used_at: at(60),
    }),
  },
  {
    equipment: 'hood',
    by: 'manager',
    event: (at) => ({
      kind: 'preventive_maintenance',
      outcome: 'pass',
      performed_at: at(30),
      performed_by_name: 'Esco certified technician',
      result_summary: 'Airflow 0.45 m/s; HEPA integrity test passed.',
      next_due_at: at(-335),
    }),
  },
  {
    equipment: 'autoclave',
    by: 'member',
    event: (at) => ({
      kind: 'fault',
      performed_at: at(21),
      notes: 'Door gasket leaking; cycle aborted at 110 °C.',
    }),
  },
  {
    equipment: 'autoclave',
    by: 'manager',
    event: (at) => ({
      kind: 'service',
      outcome: 'pass',
      performed_at: at(20),
      performed_by_name: 'Tuttnauer field service',
      result_summary: 'Door gasket replaced; test cycle at 121 °C / 15 psi passed.',
    }),
  },
  {
    equipment: 'autoclave',
    by: 'manager',
    event: (at) => ({
      kind: 'calibration',
      performed_at: at(19.9),
      performed_by_name: 'Tuttnauer field service',
      result_summary: 'Chamber temperature probe verified against a reference thermometer.',
      next_due_at: at(-345),
    }),
  },
  {
    equipment: 'hood',
    by: 'manager',
    event: (at, explants) => ({
      kind: 'used',
      subject_type: 'explant_transfer',
      subject_id: explants['philodendron-b02']!,
      subject_label: 'PHI-PP-B02 to root induction',
      used_at: at(20),
    }),
  },
  {
    equipment: 'phMeter',
    by: 'member',
    event: (at) => ({
      kind: 'calibration',
      outcome: 'out_of_tolerance',
      performed_at: at(8),
      performed_by_name: 'Priya Natarajan',
      result_summary: 'pH 7.00 buffer read 7.21; electrode cleaned.',
    }),
  },
  {
    equipment: 'phMeter',
    by: 'member',
    event: (at) => ({
      kind: 'calibration',
      outcome: 'pass_after_adjustment',
      performed_at: at(7.9),
      performed_by_name: 'Priya Natarajan',
      result_summary: 'Two-point calibration with pH 4.01 and 7.00 buffers; slope 98.6%.',
      next_due_at: at(-6),
    }),
  },
  {
    equipment: 'balance',
    by: 'manager',
    event: (at) => ({
      kind: 'calibration',
      outcome: 'pass',
      performed_at: at(5),
      performed_by_name: 'Luis Ortega',
      result_summary: 'External calibration with a 200 g class E2 weight.',
      next_due_at: at(-85),
    }),
  },
  {
    equipment: 'autoclave',
    by: 'member',
    event: (at) => ({
      kind: 'used',
      used_at: at(2),
      subject_type: 'media_batch',
      subject_id: '01936b2e-6f1a-7c3d-9e4f-5a6b7c8d9e0f',
      subject_label: 'MS + BAP 2 mg/L, 20 vessels',
    }),
  },
];
