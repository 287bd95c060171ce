/**
 * The plants and explants of the demo lab: real tissue-culture crops with the
 * stage history a working lab would have. Days are counted back from "now".
 */

export type DemoMemberKey = 'owner' | 'manager' | 'member';
export type DemoRoomKey = 'growthA' | 'growthB' | 'mediaPrep';

export interface DemoMove {
  stage: string;
  daysAgo: number;
  room?: DemoRoomKey;
  notes?: string;
}

export interface DemoPlant {
  key: string;
  createdBy: DemoMemberKey;
  daysAgo: number;
  species: string;
  commonName: string;
  genus: string;
  family: string;
  cultivar: string | null;
  source: string;
  externalId: string;
  initialStage: string;
  customFields: Record<string, string | number>;
  moves: DemoMove[];
}

/** A subculture onto fresh medium, with the counts taken at the bench. */
export interface DemoTransfer {
  daysAgo: number;
  by: DemoMemberKey;
  from: string;
  to: string;
  vesselCount: number;
  plantletCount?: number;
  notes?: string;
}

export interface DemoExplant {
  key: string;
  plant: string;
  createdBy: DemoMemberKey;
  daysAgo: number;
  label: string;
  batchNumber: string;
  status: 'active' | 'establishing' | 'growing';
  /** Vessels at the start; the transfers' counts (oldest first) bring it to today's. */
  initialCount: number;
  customFields: Record<string, string>;
  moves: DemoMove[];
  transfers: DemoTransfer[];
}

export interface DemoContamination {
  explant: string;
  loggedBy: DemoMemberKey;
  daysAgo: number;
  type: 'bacteria' | 'mold';
  issue: string;
  severity: 'low' | 'medium' | 'high';
  suspectedSource: 'tool' | 'airborne';
  vesselsAffected: number;
  markings: string;
  notes: string;
  /** How it ended, when it has (resolved through the API, days after it was logged). */
  resolution?: {
    outcome: 'discarded' | 'treated';
    notes: string;
    by: DemoMemberKey;
    daysAgo: number;
  };
}

export const DEMO_PLANTS: readonly DemoPlant[] = [
  {
    key: 'monstera',
    createdBy: 'owner',
    daysAgo: 160,
    species: 'Monstera deliciosa',
    commonName: "Monstera 'Thai Constellation'",
    genus: 'Monstera',
    family: 'Araceae',
    cultivar: 'Thai Constellation',
    source: 'Certified mother stock, Bangkok tissue-culture nursery',
    externalId: 'MON-TC-01',
    initialStage: 'quarantine',
    customFields: { mother_stock_id: 'MS-0142', variegation: 'medium' },
    moves: [
      { stage: 'mother_block', daysAgo: 130, room: 'growthA', notes: 'Cleared quarantine' },
      { stage: 'propagation', daysAgo: 70, room: 'growthA' },
    ],
  },
  {
    key: 'alocasia',
    createdBy: 'manager',
    daysAgo: 140,
    species: 'Alocasia micholitziana',
    commonName: "Alocasia 'Frydek'",
    genus: 'Alocasia',
    family: 'Araceae',
    cultivar: 'Frydek',
    source: 'Corm from a local grower',
    externalId: 'ALO-FR-01',
    initialStage: 'mother_block',
    customFields: { mother_stock_id: 'MS-0150', variegation: 'none' },
    moves: [{ stage: 'propagation', daysAgo: 90, room: 'growthB' }],
  },
  {
    key: 'philodendron',
    createdBy: 'member',
    daysAgo: 120,
    species: 'Philodendron erubescens',
    commonName: "Philodendron 'Pink Princess'",
    genus: 'Philodendron',
    family: 'Araceae',
    cultivar: 'Pink Princess',
    source: 'Node cuttings from the lab collection',
    externalId: 'PHI-PP-01',
    initialStage: 'mother_block',
    customFields: { mother_stock_id: 'MS-0157', variegation: 'high' },
    moves: [
      { stage: 'propagation', daysAgo: 80, room: 'growthB' },
      {
        stage: 'acclimation',
        daysAgo: 25,
        room: 'growthB',
        notes: 'First rooted batch out of vitro',
      },
    ],
  },
  {
    key: 'anthurium',
    createdBy: 'owner',
    daysAgo: 100,
    species: 'Anthurium warocqueanum',
    commonName: 'Queen Anthurium',
    genus: 'Anthurium',
    family: 'Araceae',
    cultivar: null,
    source: 'Seed-grown mother plant, Colombian provenance',
    externalId: 'ANT-WAR-01',
    initialStage: 'mother_block',
    customFields: { mother_stock_id: 'MS-0163', variegation: 'none' },
    moves: [],
  },
  {
    key: 'banana',
    createdBy: 'manager',
    daysAgo: 200,
    species: 'Musa acuminata',
    commonName: "Banana 'Grand Nain'",
    genus: 'Musa',
    family: 'Musaceae',
    cultivar: 'Grand Nain',
    source: 'Virus-indexed sucker from a certified supplier',
    externalId: 'MUS-GN-01',
    initialStage: 'mother_block',
    customFields: { mother_stock_id: 'MS-0118', variegation: 'none' },
    moves: [
      { stage: 'production', daysAgo: 150, room: 'growthA' },
      { stage: 'hardening_off', daysAgo: 40 },
      { stage: 'greenhouse', daysAgo: 10, notes: 'Sold-out batch moved to the greenhouse' },
    ],
  },
];

export const DEMO_EXPLANTS: readonly DemoExplant[] = [
  {
    key: 'monstera-b01',
    plant: 'monstera',
    createdBy: 'member',
    daysAgo: 110,
    label: 'MON-TC-B01',
    batchNumber: 'B2026-014',
    status: 'growing',
    initialCount: 10,
    customFields: { medium: 'MS + BAP 2 mg/L', clone: 'TC-01' },
    moves: [
      { stage: 'initiation', daysAgo: 110, room: 'growthA' },
      { stage: 'establishment', daysAgo: 95, room: 'growthA' },
      { stage: 'multiplication', daysAgo: 60, room: 'growthA', notes: 'Third subculture' },
    ],
    transfers: [
      {
        daysAgo: 95,
        by: 'member',
        from: 'Hood 1',
        to: 'Growth Room A',
        vesselCount: 12,
        plantletCount: 30,
      },
      {
        daysAgo: 60,
        by: 'member',
        from: 'Hood 1',
        to: 'Growth Room A',
        vesselCount: 18,
        plantletCount: 64,
        notes: 'Third subculture: clusters split in two',
      },
      {
        daysAgo: 21,
        by: 'manager',
        from: 'Hood 2',
        to: 'Growth Room A',
        vesselCount: 24,
        plantletCount: 96,
      },
    ],
  },
  {
    key: 'alocasia-b03',
    plant: 'alocasia',
    createdBy: 'member',
    daysAgo: 85,
    label: 'ALO-FR-B03',
    batchNumber: 'B2026-021',
    status: 'growing',
    initialCount: 12,
    customFields: { medium: 'MS + BAP 2 mg/L', clone: 'FR-03' },
    moves: [
      { stage: 'initiation', daysAgo: 85, room: 'growthB' },
      { stage: 'establishment', daysAgo: 70, room: 'growthB' },
      { stage: 'multiplication', daysAgo: 45, room: 'growthB' },
      { stage: 'elongation', daysAgo: 12, room: 'growthB' },
    ],
    transfers: [
      {
        daysAgo: 70,
        by: 'member',
        from: 'Hood 1',
        to: 'Growth Room B',
        vesselCount: 14,
        plantletCount: 40,
      },
      {
        daysAgo: 45,
        by: 'member',
        from: 'Hood 1',
        to: 'Growth Room B',
        vesselCount: 22,
        plantletCount: 90,
      },
      {
        daysAgo: 12,
        by: 'member',
        from: 'Hood 2',
        to: 'Growth Room B',
        vesselCount: 30,
        plantletCount: 140,
        notes: 'Onto elongation medium',
      },
    ],
  },
  {
    key: 'philodendron-b02',
    plant: 'philodendron',
    createdBy: 'manager',
    daysAgo: 75,
    label: 'PHI-PP-B02',
    batchNumber: 'B2026-026',
    status: 'active',
    initialCount: 8,
    customFields: { medium: 'Half-strength MS', clone: 'PP-02' },
    moves: [
      { stage: 'initiation', daysAgo: 75, room: 'growthB' },
      { stage: 'multiplication', daysAgo: 50, room: 'growthB' },
      { stage: 'root_induction', daysAgo: 20, room: 'growthB', notes: 'IBA 1 mg/L' },
    ],
    transfers: [
      {
        daysAgo: 50,
        by: 'manager',
        from: 'Hood 2',
        to: 'Growth Room B',
        vesselCount: 8,
        plantletCount: 40,
      },
      {
        daysAgo: 20,
        by: 'member',
        from: 'Hood 2',
        to: 'Growth Room B',
        vesselCount: 8,
        plantletCount: 64,
        notes: 'Onto rooting medium (IBA 1 mg/L)',
      },
    ],
  },
  {
    key: 'anthurium-b01',
    plant: 'anthurium',
    createdBy: 'owner',
    daysAgo: 30,
    label: 'ANT-WAR-B01',
    batchNumber: 'B2026-033',
    status: 'establishing',
    initialCount: 6,
    customFields: { medium: 'WPM', clone: 'WAR-01' },
    moves: [
      { stage: 'initiation', daysAgo: 30, room: 'growthA' },
      {
        stage: 'establishment',
        daysAgo: 12,
        room: 'growthA',
        notes: 'One vessel lost to bacteria',
      },
    ],
    transfers: [
      {
        daysAgo: 11,
        by: 'owner',
        from: 'Hood 1',
        to: 'Growth Room A',
        vesselCount: 5,
        notes: 'Fresh WPM; the contaminated vessel was discarded',
      },
    ],
  },
];

/** One open contamination and one that was dealt with. */
export const DEMO_CONTAMINATIONS: readonly DemoContamination[] = [
  {
    explant: 'anthurium-b01',
    loggedBy: 'owner',
    daysAgo: 13,
    type: 'bacteria',
    issue: 'Milky ooze spreading from the explant base',
    severity: 'medium',
    suspectedSource: 'tool',
    vesselsAffected: 1,
    markings: 'ANT-WAR-B01 #4',
    notes: 'Vessel discarded; the rest are watched daily until the next transfer.',
  },
  {
    explant: 'alocasia-b03',
    loggedBy: 'member',
    daysAgo: 40,
    type: 'mold',
    issue: 'Grey fuzz on the medium surface',
    severity: 'low',
    suspectedSource: 'airborne',
    vesselsAffected: 2,
    markings: 'ALO-FR-B03 #7, #8',
    notes: 'Seen at the weekly check.',
    resolution: {
      outcome: 'discarded',
      notes: 'Both vessels autoclaved; hood pre-filter replaced.',
      by: 'manager',
      daysAgo: 38,
    },
  },
];
