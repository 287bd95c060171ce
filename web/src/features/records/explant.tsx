import { useRef } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { FormError } from '../../forms/fields';
import { useApiForm } from '../../forms/form';
import { useAnswer } from '../../ui/answer';
import { Chip, Fact, TimeAgo } from '../../ui/parts';
import { words } from '../../ui/words';
import { recordHref } from '../../ui/links';
import type { RecordContext } from './page/context';
import { RecordFacts } from './page/facts';
import { RecordPage } from './page/page';
import { strings } from './strings';

type Explant = Schemas['Explant'];

const ENDED = ['discarded', 'retired', 'lost'];

type Ending = 'lost' | 'discarded' | 'retired';

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
      chips={(explant) => emptied(explant) && <Chip tone="warn">{strings.empty.chip}</Chip>}
      split={(explant) =>
        explant.current_count !== null &&
        explant.current_count > 0 &&
        !ENDED.includes(explant.status) &&
        explant.archived_at === null
          ? {
              label: labelOf(explant),
              vessels: explant.current_count,
              plantlets: explant.plantlet_count,
            }
          : null
      }
      facts={(explant, page) => (
        <>
          <ExplantFacts explant={explant} page={page} />
          {emptied(explant) && <EmptyCulture explant={explant} page={page} />}
        </>
      )}
    />
  );
}

/** A culture transferred down to no vessel that still reads as going on. */
const emptied = (explant: Explant) =>
  explant.current_count === 0 && !ENDED.includes(explant.status) && explant.archived_at === null;

/**
 * What a culture at 0 vessels is offered: to be marked lost or discarded (PATCH
 * status), by who may change it; anyone else is told who may.
 */
function EmptyCulture(props: { explant: Explant; page: RecordContext }) {
  const { explant, page } = props;
  const ending = useRef<Ending>('lost');
  // A culture split into daughters went on in them: it is retired, not lost.
  const children = useAnswer(
    () =>
      call(
        api.GET('/api/v1/explants/{id}/lineage', {
          params: { path: { id: explant.id }, query: { direction: 'descendants', depth: 1 } },
        }),
      ),
    [explant.id, page.version],
  );
  const split = children?.ok === true && children.data.nodes.length > 1;
  const endings: readonly Ending[] = split ? ['retired'] : ['lost', 'discarded'];
  const form = useApiForm({
    fields: ['status'],
    send: (key) =>
      call(
        api.PATCH('/api/v1/explants/{id}', {
          params: { path: { id: explant.id }, header: { 'idempotency-key': key } },
          body: { status: ending.current },
        }),
      ),
    onSuccess: (ended) => page.changed(strings.empty.done(words(ended.status))),
  });
  const may = page.mayChange && page.can('write:explants');
  return (
    <section class="panel record-empty" aria-labelledby="empty-title">
      <h2 id="empty-title">{strings.empty.title}</h2>
      <p>
        {split
          ? strings.empty.splitLead(words(explant.status))
          : strings.empty.lead(words(explant.status))}
      </p>
      <FormError message={form.formError ?? form.errorFor('status')} />
      {may ? (
        <div class="actions">
          {endings.map((status) => (
            <button
              key={status}
              type="button"
              class="button"
              disabled={form.busy}
              onClick={() => {
                ending.current = status;
                void form.submit();
              }}
            >
              {strings.empty.mark[status]}
            </button>
          ))}
        </div>
      ) : (
        <p class="muted">{strings.empty.askManager}</p>
      )}
    </section>
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
      {!ended && explant.current_count !== 0 && (
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
