import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call, type Schemas } from '../../api/client';
import { useSignedIn } from '../../api/session';
import type { operations } from '../../api/schema';
import { Chip } from '../../ui/parts';
import { listQuery, RecordList, type Filters } from './list';
import { NewPlant } from './new-plant';
import { statusTone } from './model';
import { recordHref } from '../../ui/links';
import { words } from '../../ui/words';
import { strings } from './strings';

type Plant = Schemas['Plant'];
type Query = NonNullable<operations['listPlants']['parameters']['query']>;
type Status = NonNullable<Query['status']>;

const STATUSES: readonly Status[] = [
  'active',
  'dormant',
  'harvested',
  'contaminated',
  'failed',
  'in_culture',
  'ready_for_transfer',
  'quarantined',
  'archived',
];

function fetchPage(filters: Filters, cursor: string | null) {
  const query = listQuery(filters, cursor, STATUSES);
  return call(api.GET('/api/v1/plants', { params: { query } }));
}

export default function Plants() {
  const { can } = useSignedIn();
  const { route } = useLocation();
  const [creating, setCreating] = useState(false);
  return (
    <RecordList<Plant>
      path="/plants"
      actions={
        can('write:plants') &&
        !creating && (
          <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
            {strings.newPlant.button}
          </button>
        )
      }
      opened={
        creating && (
          <NewPlant
            onCancel={() => setCreating(false)}
            onCreated={(plant) => route(recordHref.plant(plant.id))}
          />
        )
      }
      csv={{ path: '/api/v1/plants', file: 'plants' }}
      imports={{ href: '/plants/import', scope: 'write:plants' }}
      strings={strings.lists.plants}
      statuses={STATUSES}
      fetchPage={fetchPage}
      select={{ kind: 'plant', name: (plant) => plant.name }}
      row={(plant, roomName) => {
        const room = roomName(plant.current_stage?.room_id ?? null);
        return (
          <>
            <div class="row-main">
              <p class="row-title">
                <a href={recordHref.plant(plant.id)}>{plant.name}</a>
              </p>
              <p class="muted small">
                <i>{plant.species}</i>
                {plant.external_id ? ` · ${plant.external_id}` : ''}
              </p>
              <p class="small">
                {plant.current_stage?.name ??
                  plant.current_stage?.stage ??
                  strings.lists.plants.noStage}
                {room ? ` · ${room}` : ''}
              </p>
            </div>
            <div class="row-status">
              <Chip tone={statusTone(plant.status)}>{words(plant.status)}</Chip>
            </div>
          </>
        );
      }}
    />
  );
}
