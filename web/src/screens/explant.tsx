import { api, call, type Schemas } from '../api/client';
import { useAnswer } from '../ui/answer';
import { TimeAgo } from '../ui/parts';
import { recordHref } from './record-words';
import type { RecordContext } from './record-page/context';
import { RecordPage, useRecord } from './record-page/page';
import { strings } from './record-page/strings';

type Explant = Schemas['Explant'];

const ENDED = ['discarded', 'retired', 'lost'];

const labelOf = (explant: Explant) => explant.label ?? explant.external_id ?? explant.id;

/** `/explants/{id}`: a culture's page, with its counts and the plant it was taken from. */
export default function ExplantPage(props: { id?: string; params?: { id?: string } }) {
  const id = props.params?.id ?? props.id ?? '';
  const { answer, reload } = useRecord(
    () => call(api.GET('/api/v1/explants/{id}', { params: { path: { id } } })),
    id,
  );
  return (
    <RecordPage<Explant>
      kind="explant"
      id={id}
      answer={answer}
      reload={reload}
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
  const { explant, page } = props;
  const f = strings.facts;
  const stage = explant.current_stage;
  const room = page.roomName(stage?.room_id ?? null);
  const ended = ENDED.includes(explant.status);
  const overdue = !ended && new Date(explant.transfer_due_at).getTime() < Date.now();
  return (
    <dl class="facts record-facts">
      <dt>{f.stage}</dt>
      <dd>
        {stage ? (
          <>
            <strong>{stage.name ?? page.stageName(stage.stage)}</strong> {f.since}{' '}
            <TimeAgo at={stage.entered_on} />
          </>
        ) : (
          f.noStage
        )}
      </dd>
      <dt>{f.room}</dt>
      <dd>{room ?? f.noRoom}</dd>
      <dt>{f.vessels}</dt>
      <dd>
        <strong>{f.vesselsNow(explant.current_count, explant.initial_count)}</strong>
      </dd>
      <dt>{f.plantlets}</dt>
      <dd>{explant.plantlet_count ?? '–'}</dd>
      {!ended && (
        <>
          <dt>{f.transferDue}</dt>
          <dd class={overdue ? 'record-overdue' : undefined}>
            {overdue && <span aria-hidden="true">▲ </span>}
            <TimeAgo at={explant.transfer_due_at} />
          </dd>
        </>
      )}
      {explant.plant_id && (
        <>
          <dt>{f.plant}</dt>
          <dd>
            <PlantLink id={explant.plant_id} />
          </dd>
        </>
      )}
      {explant.batch_number && (
        <>
          <dt>{f.batch}</dt>
          <dd>{explant.batch_number}</dd>
        </>
      )}
      {explant.notes && (
        <>
          <dt>{f.notes}</dt>
          <dd>{explant.notes}</dd>
        </>
      )}
      <dt>{f.created}</dt>
      <dd>
        <TimeAgo at={explant.created_at} />
      </dd>
    </dl>
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
