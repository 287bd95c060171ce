import type { Trx } from '../../db/database.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { recordLabelScan } from '../label-scans/index.js';
import { createMediaRecipe, updateMediaRecipe } from '../media-recipes/index.js';
import type { DemoMemberKey } from './demo.records.js';

const g = (name: string, qty: string, unit = 'g/L') => ({ name, qty, unit });

/** The aroid multiplication medium the whole lab uses (shared with the team). */
const MULTIPLICATION_MEDIUM = {
  title: 'MS + BAP (aroid multiplication)',
  components: [
    g('MS basal salts with vitamins', '4.4'),
    g('Sucrose', '30'),
    { name: '6-Benzylaminopurine (BAP)', qty: '2', unit: 'mg/L', concentration: '1 mg/mL stock' },
    g('Agar', '7'),
  ],
  notes: 'Standard multiplication medium for Monstera, Alocasia and Philodendron.',
  visibility: 'team' as const,
  ph_target: 5.8,
  sterilization_notes: 'Autoclave 121 °C, 20 min; pH before adding agar.',
  storage_notes: 'Dark, 4 °C, use within 4 weeks.',
  usage_notes: 'Subculture every 4 to 6 weeks.',
};

/** A rooting medium still being worked out: the lab owner's private draft. */
const ROOTING_DRAFT = {
  title: 'Half MS + IBA (rooting trial)',
  components: [
    g('MS basal salts with vitamins', '2.2'),
    g('Sucrose', '20'),
    { name: 'Indole-3-butyric acid (IBA)', qty: '1', unit: 'mg/L' },
    g('Activated charcoal', '1'),
    g('Agar', '6.5'),
  ],
  status: 'draft' as const,
  ph_target: 5.7,
  usage_notes: 'Trial on the Philodendron B02 root induction batch.',
};

/**
 * The demo lab's media recipes, through the same services as the API: the shared
 * multiplication medium (revised once, so at version 2) and the owner's private
 * rooting draft; and a label scan at the transfer bench.
 */
export async function addDemoRecipesAndScans(
  trx: Trx,
  input: {
    principals: Record<DemoMemberKey, Principal>;
    explants: Record<string, string>;
    records: RecordLookup;
    at: (daysAgo: number) => string;
  },
): Promise<void> {
  const { principals, at } = input;
  const shared = await createMediaRecipe(trx, principals.manager, MULTIPLICATION_MEDIUM, at(150));
  await updateMediaRecipe(
    trx,
    principals.manager,
    shared.id,
    {
      components: shared.components.map((c) =>
        c.name.startsWith('6-Benzylaminopurine') ? { ...c, qty: '1.5' } : c,
      ),
      notes: `${MULTIPLICATION_MEDIUM.notes} BAP lowered to 1.5 mg/L against hyperhydricity.`,
    },
    at(60),
  );
  await createMediaRecipe(trx, principals.owner, ROOTING_DRAFT, at(18));
  await recordLabelScan(
    trx,
    principals.member,
    {
      barcode: 'VT-E-0001',
      explant_id: input.explants['monstera-b01']!,
      context: 'transfer bench',
      scanned_at: at(1),
    },
    input.records,
    at(1),
  );
}
