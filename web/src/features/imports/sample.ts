import { api, call } from '../../api/client';
import { saveFile } from '../../ui/download';
import type { ImportKind } from './send';

/** A CSV cell, always quoted (a name may hold a comma or a quote). */
const cell = (value: string) => `"${value.replace(/"/g, '""')}"`;
const csv = (rows: readonly (readonly string[])[]) =>
  rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';

/** What the sample's rows take from the lab, so that it imports as it is. */
interface Lab {
  readonly room: string;
  readonly plantStage: string;
  readonly explantStage: string;
  /** A plant of the lab as a Plant cell names it: its code, else its name. */
  readonly plant: string;
}

async function readLab(): Promise<Lab> {
  const [rooms, stages, plants] = await Promise.all([
    call(api.GET('/api/v1/rooms', { params: { query: { limit: 1 } } })),
    call(api.GET('/api/v1/stage-lists')),
    call(api.GET('/api/v1/plants', { params: { query: { limit: 1 } } })),
  ]);
  const plant = plants.ok ? plants.data[0] : undefined;
  return {
    room: rooms.ok ? (rooms.data[0]?.name ?? '') : '',
    plantStage: stages.ok ? (stages.data.plant[0]?.name ?? '') : '',
    explantStage: stages.ok ? (stages.data.explant[0]?.name ?? '') : '',
    plant: plant?.external_id ?? plant?.name ?? '',
  };
}

/** The sample's rows: the header a lab's sheet would have, and two rows of this lab. */
function sampleRows(kind: ImportKind, lab: Lab): string[][] {
  if (kind === 'explants') {
    const code = lab.plant === '' ? 'LINE' : lab.plant;
    return [
      ['Label', 'Plant', 'Vessels', 'Plantlets', 'Stage', 'Room', 'Batch', 'Notes'],
      [`${code}-01`, lab.plant, '12', '48', lab.explantStage, lab.room, 'B-01', 'First initiation'],
      [`${code}-02`, lab.plant, '8', '', lab.explantStage, lab.room, 'B-01', ''],
    ];
  }
  if (kind === 'rooms') return [['Name'], ['Growth room 1'], ['Quarantine']];
  return [
    ['Species', 'Common name', 'Cultivar', 'External ID', 'Status', 'Stage', 'Room', 'Notes'],
    [
      'Monstera deliciosa',
      'Swiss cheese plant',
      'Thai Constellation',
      'SAMPLE-001',
      'active',
      lab.plantStage,
      lab.room,
      'Mother plant from the spring order',
    ],
    ['Anthurium warocqueanum', 'Queen anthurium', '', 'SAMPLE-002', 'active', '', '', ''],
  ];
}

/**
 * A sample file for an import, made here in the browser: the columns a lab
 * writes, two rows naming this lab's own rooms, stages and a plant, so that it
 * imports as it is and shows what each column takes.
 */
export async function downloadSample(kind: ImportKind): Promise<void> {
  const text = csv(sampleRows(kind, await readLab()));
  saveFile(new Blob([text], { type: 'text/csv' }), `vitro-${kind}-sample.csv`);
}
