import { useState } from 'preact/hooks';
import { api, call, type Answer } from '../../../api/client';
import { useAnswer } from '../../../ui/answer';
import { recordHref } from '../../../ui/links';
import { Chip, Notice } from '../../../ui/parts';
import { words } from '../../../ui/words';
import { statusTone } from '../model';
import { useRecordPage } from '../page/context';
import { strings } from '../strings';
import { FamilyGraph } from './graph';
import { useMayRecall } from './recall';
import { familyPart, familyRows, type FamilyNode, type FamilyRow, type Lineage } from './model';

/** Generations shown at first, and added by "show more", each way. */
const GENERATIONS = 3;
/** Explants shown at first, and added by "show more": a family of thousands stays quick. */
const ROWS = 60;
/** Indents beyond this stay at it on a phone (the row says its generation). */
const MAX_INDENT = 6;

/**
 * A record's family (GET …/lineage): for an explant its ancestors and descendants, for
 * a plant the cultures started from it and theirs. On a phone, generations as
 * indented rows; on a desk, a graph, the rows kept for screen readers. A few
 * generations at first, each way: the API is asked for one more, to say what is
 * beyond.
 */
export function FamilyPart() {
  const page = useRecordPage();
  const { kind, id, version } = page;
  const [down, setDown] = useState({ generations: GENERATIONS, rows: ROWS });
  const [upGenerations, setUp] = useState(GENERATIONS);
  const read = (direction: 'ancestors' | 'descendants', depth: number) =>
    kind === 'plant'
      ? call<Lineage>(
          api.GET('/api/v1/plants/{id}/lineage', {
            params: { path: { id }, query: { depth } },
          }),
        )
      : call<Lineage>(
          api.GET('/api/v1/explants/{id}/lineage', {
            params: { path: { id }, query: { direction, depth } },
          }),
        );
  const descendants = useAnswer(
    () => read('descendants', down.generations + 1),
    [kind, id, version, down.generations],
  );
  const ancestors = useAnswer<Lineage | null>(
    () =>
      kind === 'plant'
        ? Promise.resolve({ ok: true, data: null, nextCursor: null } as Answer<null>)
        : read('ancestors', upGenerations + 1),
    [kind, id, version, upGenerations],
  );
  const f = strings.family;
  const mayRecall = useMayRecall();
  const loading = descendants === null || ancestors === null;
  const failure =
    (descendants?.ok === false ? descendants.failure : null) ??
    (ancestors?.ok === false ? ancestors.failure : null);

  let body = null;
  if (!loading && failure === null && descendants.ok && ancestors.ok) {
    const downPart = familyPart(
      descendants.data,
      'descendants',
      down.generations,
      down.rows,
      kind === 'plant',
    );
    const upPart = ancestors.data
      ? familyPart(ancestors.data, 'ancestors', upGenerations, ROWS)
      : null;
    const self = descendants.data.nodes.find((node) => node.generation === 0) ?? null;
    const rows = familyRows(upPart, downPart, self);
    const count = rows.filter((row) => row.generation > 0).length;
    const more = downPart.hidden > 0 || downPart.beyond > 0;
    body =
      rows.length === 1 ? (
        <p class="muted">{f.none[kind]}</p>
      ) : (
        <>
          {count > 0 && <p>{f.summary(count, downPart.generations, more)}</p>}
          {upPart !== null && upPart.beyond > 0 && (
            <p class="muted small">
              {f.older}{' '}
              <button
                type="button"
                class="button button-quiet button-inline"
                onClick={() => setUp((n) => n + GENERATIONS)}
              >
                {f.showOlder}
              </button>
            </p>
          )}
          <FamilyGraph ancestors={upPart} descendants={downPart} selfName={page.name} />
          <ol class="family-rows" aria-label={f.listLabel}>
            {rows.map((row) => (
              <FamilyRowItem key={row.node?.id ?? 'self'} row={row} />
            ))}
          </ol>
          {downPart.hidden > 0 && <p class="muted small">{f.hidden(downPart.hidden)}</p>}
          {downPart.hidden === 0 && downPart.beyond > 0 && (
            <p class="muted small">{f.beyond(downPart.beyond, downPart.generations)}</p>
          )}
          {more && (
            <div class="actions">
              <button
                type="button"
                class="button"
                onClick={() =>
                  setDown((now) =>
                    downPart.hidden > 0
                      ? { ...now, rows: now.rows + ROWS }
                      : { ...now, generations: now.generations + GENERATIONS },
                  )
                }
              >
                {f.showMore}
              </button>
            </div>
          )}
        </>
      );
  }

  return (
    <section class="panel family" aria-labelledby="family-title" aria-busy={loading}>
      <h2 id="family-title">{f.title}</h2>
      <p class="muted">{f.lead[kind]}</p>
      {failure && <Notice tone="bad">{failure.error}</Notice>}
      {loading && <p class="muted">{f.loading}</p>}
      {body}
      {!mayRecall && page.can('write:explants') && (
        <p class="muted small">{strings.recall.forManagers(strings.noun[kind])}</p>
      )}
    </section>
  );
}

function FamilyRowItem(props: { row: FamilyRow }) {
  const { kind, name } = useRecordPage();
  const { node, generation, indent, alsoFrom } = props.row;
  const f = strings.family;
  const self = generation === 0;
  const classes = [
    'family-row',
    `family-indent-${Math.min(indent, MAX_INDENT)}`,
    self ? 'family-row-self' : '',
  ];
  return (
    <li class={classes.join(' ')} aria-current={self ? 'page' : undefined}>
      <div class="family-row-main">
        <p class="family-relation">{f.relation(generation, kind)}</p>
        <p class="row-title">
          {self || node === null ? (
            <strong>{node?.label ?? name}</strong>
          ) : (
            <a href={recordHref.explant(node.id)}>{nodeName(node)}</a>
          )}
        </p>
        {node && (
          <p class="small">
            {node.stage_name ?? node.stage ?? f.noStage} ·{' '}
            {f.counts(node.current_count, node.plantlet_count)}
          </p>
        )}
        {alsoFrom.length > 0 && (
          <p class="small">
            {f.alsoFrom}{' '}
            {alsoFrom.map((other, i) => (
              <span key={other.id}>
                {i > 0 && ', '}
                <a href={recordHref.explant(other.id)}>{nodeName(other)}</a>
              </span>
            ))}
          </p>
        )}
      </div>
      {node && (
        <div class="family-row-status">
          <Chip tone={statusTone(node.status)}>{words(node.status)}</Chip>
        </div>
      )}
    </li>
  );
}

const nodeName = (node: FamilyNode) => node.label ?? strings.family.unlabelled;
