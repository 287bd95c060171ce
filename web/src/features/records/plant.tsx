import { api, call, type Schemas } from '../../api/client';
import { usePagedList } from '../../ui/paged';
import { Chip, Fact } from '../../ui/parts';
import { statusTone } from './model';
import { recordHref } from '../../ui/links';
import { words } from '../../ui/words';
import { useSignedIn } from '../../api/session';
import { useRecordPage, type RecordContext } from './page/context';
import { InitiateExplants, NewExplant } from './new-explants';
import { ListPart } from './page/history';
import { RecordFacts } from './page/facts';
import { RecordPage } from './page/page';
import { strings } from './strings';

type Plant = Schemas['Plant'];
type Explant = Schemas['Explant'];

/** `/plants/{id}`: a plant's page, with the explants taken from it. */
export default function PlantPage(props: { id?: string; params?: { id?: string } }) {
  const id = props.params?.id ?? props.id ?? '';
  const { can } = useSignedIn();
  return (
    <RecordPage<Plant>
      kind="plant"
      id={id}
      read={() => call(api.GET('/api/v1/plants/{id}', { params: { path: { id } } }))}
      title={(plant) => plant.name}
      subtitle={(plant) => (
        <>
          <i>{plant.species}</i>
          {plant.external_id ? ` · ${plant.external_id}` : ''}
        </>
      )}
      facts={(plant, page) => <PlantFacts plant={plant} page={page} />}
      related={(plant) => <PlantExplants plantId={plant.id} />}
      forms={(plant) =>
        can('write:explants')
          ? {
              initiate: (close) => <InitiateExplants plant={plant} onCancel={close} />,
              explant: (close) => <NewExplant plant={plant} onCancel={close} />,
            }
          : {}
      }
    />
  );
}

function PlantFacts(props: { plant: Plant; page: RecordContext }) {
  const { plant } = props;
  const f = strings.facts;
  const optional: [string, string | null][] = [
    [f.externalId, plant.external_id],
    [f.genus, plant.genus],
    [f.family, plant.family],
    [f.cultivar, plant.cultivar],
    [f.source, plant.source],
    [f.notes, plant.notes],
  ];
  return (
    <RecordFacts record={plant} page={props.page}>
      <Fact term={f.species}>
        <i>{plant.species}</i>
      </Fact>
      {optional.map(([label, value]) =>
        value === null ? null : (
          <Fact key={label} term={label}>
            {value}
          </Fact>
        ),
      )}
    </RecordFacts>
  );
}

function PlantExplants(props: { plantId: string }) {
  // Read again after a change on the page (explants initiated from the plant).
  const { version } = useRecordPage();
  const list = usePagedList<Explant>(
    (cursor) =>
      call(
        api.GET('/api/v1/explants', {
          params: { query: { plant_id: props.plantId, limit: 20, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    [props.plantId, version],
  );
  return (
    <ListPart
      id="plant-explants-title"
      title={strings.explants.title}
      list={list}
      empty={strings.explants.empty}
      more={strings.explants.more}
    >
      {(explant) => (
        <li key={explant.id} class="row">
          <div class="row-main">
            <p class="row-title">
              <a href={recordHref.explant(explant.id)}>
                {explant.label ?? explant.external_id ?? explant.id}
              </a>
            </p>
            <p class="small">
              {explant.current_stage?.name ??
                explant.current_stage?.stage ??
                strings.lists.explants.noStage}
              {explant.current_count !== null
                ? ` · ${strings.facts.vesselsNow(explant.current_count, null)}`
                : ''}
            </p>
          </div>
          <div class="row-status">
            <Chip tone={statusTone(explant.status)}>{words(explant.status)}</Chip>
          </div>
        </li>
      )}
    </ListPart>
  );
}
