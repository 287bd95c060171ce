import type { DemoEquipmentKey } from './demo.equipment.js';
import type { DemoRoomKey } from './demo.records.js';
import { monthOfSales } from './demo.sales.js';

/*
 * The demo lab's library data, written as import files so that it goes through
 * the same validation and services as `vitro import`.
 */

type At = (daysAgo: number) => string;

const step = (n: number, instruction: string, minutes: number, extra = {}) => ({
  id: `step-${n}`,
  instruction,
  estimated_minutes: minutes,
  ...extra,
});

const SUBCULTURE_STEPS = [
  step(
    1,
    'Switch on the laminar flow hood 15 minutes before work; spray gloves, sleeves and the work surface with 70% ethanol.',
    15,
    { safety_warning: 'Ethanol is flammable: keep it away from the bead sterilizer.' },
  ),
  step(
    2,
    'Sterilize forceps and scalpels in the bead sterilizer (250 °C, 15 s); cool on a sterile rack.',
    5,
  ),
  step(3, 'Wipe the culture vessels with 70% ethanol and open them only inside the hood.', 3),
  step(4, 'Lift the shoot cluster onto a sterile tile; trim browned tissue and callus.', 5),
  step(
    5,
    'Divide into clumps of 2-3 shoots and set them upright on fresh multiplication medium, 4-5 clumps per vessel.',
    10,
  ),
  step(
    6,
    'Close and label each vessel with batch code and date; record vessel and plantlet counts.',
    5,
    {
      notes: 'Counts go on the explant record, not on paper.',
    },
  ),
  step(7, 'Move the vessels to the growth room (16 h light / 8 h dark, 24 °C).', 2),
];

const MEDIA_STEPS = [
  step(1, 'Fill a beaker with 800 mL of deionized water and start the stirrer.', 2),
  step(2, 'Add 4.4 g MS basal salts with vitamins and 30 g sucrose; stir until dissolved.', 5),
  step(3, 'Add 2 mL of BAP stock (1 mg/mL) for 2 mg/L.', 2),
  step(4, 'Make up to 1 L and adjust pH to 5.7-5.8 with 1 M KOH or HCl.', 5, {
    notes: 'Calibrate the pH meter first if it was not calibrated today.',
  }),
  step(5, 'Add 7 g agar, heat until clear, and dispense 25 mL per vessel.', 15),
  step(6, 'Autoclave at 121 °C and 15 psi for 20 minutes.', 40, {
    safety_warning: 'Wait until the chamber pressure reads zero before opening the door.',
  }),
];

/** The ids the demo lab gives its SOPs, so that it can run them after the import. */
export interface DemoSopIds {
  subculture: string;
  media: string;
}

export function demoSetupFile(
  rooms: Record<DemoRoomKey, string>,
  equipment: Record<DemoEquipmentKey, string>,
  sopIds: DemoSopIds,
  at: At,
) {
  return {
    custom_fields: [
      { entity: 'plant', key: 'mother_stock_id', type: 'text' },
      {
        entity: 'plant',
        key: 'variegation',
        type: 'select',
        options: ['none', 'low', 'medium', 'high'],
      },
      {
        entity: 'explant',
        key: 'medium',
        type: 'select',
        options: ['MS + BAP 2 mg/L', 'Half-strength MS', 'WPM'],
      },
      { entity: 'explant', key: 'clone', type: 'text' },
    ],
    rooms: [
      { id: rooms.growthA, name: 'Growth Room A' },
      { id: rooms.growthB, name: 'Growth Room B' },
      { id: rooms.mediaPrep, name: 'Media Prep Room' },
    ],
    sops: [
      {
        id: sopIds.subculture,
        title: 'Subculture of shoot clusters',
        description:
          'Dividing multiplying shoot clusters onto fresh medium in the laminar flow hood.',
        category: 'tissue-culture',
        status: 'active',
        level: 'intermediate',
        tags: ['subculture', 'aseptic technique'],
        equipment: ['laminar flow hood', 'bead sterilizer'],
        estimated_time_minutes: 45,
        versions: [
          {
            version: 1,
            lifecycle_status: 'superseded',
            effective_at: at(300),
            approved_at: at(302),
            steps: SUBCULTURE_STEPS.slice(0, 6),
          },
          {
            version: 2,
            lifecycle_status: 'effective',
            effective_at: at(90),
            approved_at: at(92),
            description: 'Adds the move to the growth room and the photoperiod.',
            steps: SUBCULTURE_STEPS,
          },
        ],
      },
      {
        id: sopIds.media,
        title: 'MS medium with BAP (1 L)',
        category: 'media-prep',
        status: 'active',
        level: 'beginner',
        tags: ['media'],
        equipment: ['balance', 'pH meter', 'autoclave'],
        estimated_time_minutes: 75,
        versions: [
          {
            version: 1,
            lifecycle_status: 'effective',
            effective_at: at(200),
            approved_at: at(201),
            steps: MEDIA_STEPS,
          },
        ],
      },
      {
        title: 'Acclimatization of rooted plantlets',
        category: 'acclimatization',
        status: 'draft',
        level: 'beginner',
        duration_hours: 336,
        versions: [
          {
            version: 1,
            lifecycle_status: 'draft',
            steps: [
              step(1, 'Rinse agar from the roots under lukewarm water.', 10),
              step(2, 'Plant into moist sphagnum and perlite (1:1) under a humidity dome.', 20),
              step(3, 'Open the dome vents a little more each day over two weeks.', 5),
            ],
          },
        ],
      },
    ],
    equipment: [
      {
        id: equipment.autoclave,
        name: 'Autoclave 1',
        category: 'autoclave_pressure_cooker',
        manufacturer: 'Tuttnauer',
        model: '2540EL',
        serial_number: 'TT-2540-118734',
        location: 'Media Prep Room',
        purchase_date: '2023-03-14',
      },
      {
        id: equipment.hood,
        name: 'Laminar flow hood',
        category: 'laminar_flow_hood',
        manufacturer: 'Esco',
        model: 'Airstream AHC-4D1',
        location: 'Growth Room A',
        purchase_date: '2023-04-02',
        notes: 'HEPA filter replaced 2025-09.',
      },
      {
        id: equipment.balance,
        name: 'Analytical balance',
        category: 'balance_scale',
        manufacturer: 'Ohaus',
        model: 'Pioneer PX224',
        location: 'Media Prep Room',
      },
      {
        id: equipment.phMeter,
        name: 'pH meter',
        category: 'ph_ec_meter',
        manufacturer: 'Hanna Instruments',
        model: 'HI5221',
        location: 'Media Prep Room',
      },
      {
        id: equipment.lightRack,
        name: 'LED light rack 1',
        category: 'light_rack',
        location: 'Growth Room A',
        notes: 'Five shelves, 16 h / 8 h photoperiod.',
      },
      {
        id: equipment.oldCooker,
        name: 'Pressure cooker (retired)',
        category: 'autoclave_pressure_cooker',
        status: 'archived',
        manufacturer: 'All American',
        model: '921',
      },
    ],
  };
}

const usd = (amount: string) => ({ amount, currency: 'USD' });

export function demoSalesFile(
  plants: Record<string, string>,
  explants: Record<string, string>,
  ids: { tray: string; productLinks: readonly string[] },
  at: At,
) {
  const productLinks = ids.productLinks;
  const plant = (key: string) => plants[key]!;
  const explant = (key: string) => explants[key]!;
  return {
    labels: [
      {
        barcode: 'VT-P-0001',
        record_type: 'plant',
        record_id: plant('monstera'),
        display_name: "Monstera 'Thai Constellation' mother",
      },
      {
        barcode: 'VT-P-0002',
        record_type: 'plant',
        record_id: plant('alocasia'),
        display_name: "Alocasia 'Frydek' mother",
      },
      {
        barcode: 'VT-P-0003',
        record_type: 'plant',
        record_id: plant('philodendron'),
        display_name: "Philodendron 'Pink Princess' mother",
      },
      {
        barcode: 'VT-E-0001',
        record_type: 'explant',
        record_id: explant('monstera-b01'),
        display_name: 'MON-TC-B01',
      },
      {
        barcode: 'VT-E-0002',
        record_type: 'explant',
        record_id: explant('alocasia-b03'),
        display_name: 'ALO-FR-B03',
      },
      {
        barcode: 'VT-C-0001',
        record_type: 'container',
        record_id: ids.tray,
        display_name: 'Tray 3, Growth Room A, shelf 2',
        contents: [
          { record_type: 'explant', record_id: explant('monstera-b01') },
          { record_type: 'explant', record_id: explant('anthurium-b01') },
        ],
      },
    ],
    culture_line_prices: [
      {
        plant_id: plant('monstera'),
        list_price: usd('45.00'),
        wholesale_price: usd('28.00'),
        pricing_tier: 'A',
        tier_score: '0.92',
      },
      {
        plant_id: plant('alocasia'),
        list_price: usd('24.00'),
        wholesale_price: usd('14.50'),
        pricing_tier: 'B',
        tier_score: '0.71',
      },
      {
        plant_id: plant('philodendron'),
        list_price: usd('32.00'),
        wholesale_price: usd('19.00'),
        pricing_tier: 'A',
        tier_score: '0.85',
      },
      {
        plant_id: plant('anthurium'),
        list_price: usd('85.00'),
        pricing_tier: 'A',
        tier_score: '0.97',
        price_source: 'store_follow',
        notes: 'Follows the web store price.',
      },
      {
        plant_id: plant('banana'),
        list_price: usd('6.50'),
        wholesale_price: usd('3.90'),
        pricing_tier: 'C',
        tier_score: '0.40',
      },
    ],
    price_events: [
      { plant_id: plant('monstera'), list_price: usd('39.00'), changed_at: at(120) },
      {
        plant_id: plant('monstera'),
        list_price: usd('45.00'),
        previous_list_price: usd('39.00'),
        changed_at: at(30),
      },
      {
        plant_id: plant('alocasia'),
        list_price: usd('24.00'),
        previous_list_price: usd('22.00'),
        changed_at: at(14),
      },
      {
        plant_id: plant('anthurium'),
        list_price: usd('85.00'),
        previous_list_price: usd('79.00'),
        price_source: 'store_follow',
        changed_at: at(7),
      },
      {
        plant_id: plant('banana'),
        list_price: usd('6.50'),
        previous_list_price: { amount: '5.90', currency: 'EUR' },
        price_source: 'store_adopted',
        changed_at: at(45),
      },
    ],
    order_lines: monthOfSales(plant, productLinks, at),
  };
}
