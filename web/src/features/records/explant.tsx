import { api, call, type Schemas } from '../../api/client';
import { useAnswer } from '../../ui/answer';
import { Fact, TimeAgo } from '../../ui/parts';
import { recordHref } from '../../ui/links';
import type { RecordContext } from './page/context';
import { RecordFacts } from './page/facts';
import { RecordPage } from './page/page';
import { strings } from './strings';

type Explant = Schemas['Explant'];

const ENDED = ['discarded', 'retired', 'lost'];

const labelOf = (explant: Explant) => explant.label ?? explant.external_id ?? explant.id;

/** `/explants/{id}`: a culture's page, with its counts and the plant it was taken from. */
export default function ExplantPage(props: { id?: string; params?: { id?: string } }) {
  const id = props.params?.id ?? props.id ?? '';
  return (
    <RecordPage<Explant>
      kind="explant"
      id={id}
      read={() => call(api.GET('/api/v1/explants/{id}', { params: { path: { id } } }))}
      title={labelOf}
      subtitle={(explant) =>
        // The code, when it is more than the label or batch already shown.
        explant.external_id !== explant.label && explant.external_id !== explant.batch_number
          ? explant.external_id
          : null
      }
      facts={(explant, page) => <ExplantFacts explant={explant} page={page} />}
    />
  );
}

function ExplantFacts(props: { explant: Explant; page: RecordContext }) {
  const { explant } = props;
  const f = strings.facts;
  const ended = ENDED.includes(explant.status);
  const overdue = !ended && new Date(explant.transfer_due_at).getTime() < Date.now();
  return (
    <RecordFacts record={explant} page={props.page}>
      <Fact term={f.vessels}>
        <strong>{f.vesselsNow(explant.current_count, explant.initial_count)}</strong>
      </Fact>
      <Fact term={f.plantlets}>{explant.plantlet_count ?? '–'}</Fact>
      {!ended && (
        <Fact term={f.transferDue} class={overdue ? 'record-overdue' : undefined}>
          {overdue && <span aria-hidden="true">▲ </span>}
          <TimeAgo at={explant.transfer_due_at} />
        </Fact>
      )}
      {explant.plant_id && (
        <Fact term={f.plant}>
          <PlantLink id={explant.plant_id} />
        </Fact>
      )}
      {explant.batch_number && <Fact term={f.batch}>{explant.batch_number}</Fact>}
      {explant.notes && <Fact term={f.notes}>{explant.notes}</Fact>}
    </RecordFacts>
  );
}

/** The plant an explant was taken from, by its name once read. */
function PlantLink(props: { id: string }) {
  const plant = useAnswer(
    () => call(api.GET('/api/v1/plants/{id}', { params: { path: { id: props.id } } })),
    [props.id],
  );
  return <a href={recordHref.plant(props.id)}>{plant?.ok ? plant.data.name : props.id}</a>;
}
