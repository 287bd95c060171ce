import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { api, call, type Answer } from '../../../api/client';
import { useSignedIn } from '../../../api/session';
import { useAnswer } from '../../../ui/answer';
import { Chip, ScreenHeader } from '../../../ui/parts';
import { useRecordScreen } from '../../../ui/record-screen';
import { useTitle } from '../../../ui/title';
import { statusTone } from '../model';
import { words } from '../../../ui/words';
import { ArchivePanel } from './archive';
import { CommentsPart } from './comments';
import { RecordPageContext, type Kind, type RecordContext } from './context';
import { ContaminationForm, StageForm, TransferForm } from './forms';
import { ContaminationsPart, TimelinePart, TransfersPart } from './history';
import { PhotosPart, PHOTO_INPUT_ID } from './photos';
import { strings } from '../strings';

/** What a record page needs of a plant or an explant. */
export interface RecordBase {
  readonly id: string;
  readonly status: string;
  readonly archived_at: string | null;
  readonly custom_fields: Record<string, unknown>;
  readonly current_stage: {
    readonly stage: string;
    readonly name: string | null;
    readonly room_id: string | null;
    readonly entered_on: string;
  } | null;
}

type Form = 'stage' | 'transfer' | 'contamination' | null;

/**
 * The page of one plant or explant: its header (name, status, stage), its facts,
 * the bench actions a person may take on it, its stage timeline, transfers,
 * contaminations, photos, comments and custom fields. Each part reads its own
 * list, page by page, and reads again after a change.
 */
export function RecordPage<T extends RecordBase>(props: {
  kind: Kind;
  id: string;
  read: () => Promise<Answer<T>>;
  title: (record: T) => string;
  subtitle: (record: T) => ComponentChildren;
  facts: (record: T, context: RecordContext) => ComponentChildren;
  /** Parts of this kind only (a plant's explants). */
  related?: (record: T) => ComponentChildren;
}) {
  const { kind, id } = props;
  const { can } = useSignedIn();
  // Read again after each change, the record staying on screen meanwhile.
  const screen = useRecordScreen(props.read, id, {
    href: `/${kind}s`,
    back: strings.back[kind],
    loading: strings.loading,
  });
  const { record, back } = screen;
  useTitle(record ? props.title(record) : strings.loading);
  const [version, setVersion] = useState(0);
  const [message, setMessage] = useState('');
  const [form, setForm] = useState<Form>(null);

  const lists = useAnswer(() => call(api.GET('/api/v1/stage-lists')));
  const rooms = useAnswer(() =>
    call(api.GET('/api/v1/rooms', { params: { query: { limit: 200 } } })),
  );
  const people = useAnswer(() =>
    call(api.GET('/api/v1/people', { params: { query: { limit: 200 } } })),
  );
  // An open contamination shows in the header, in red, beside the status.
  const openLogs = useAnswer(
    () =>
      call(
        api.GET('/api/v1/contaminations', {
          params: {
            query: {
              ...(kind === 'plant' ? { plant_id: id } : { explant_id: id }),
              open: true,
              limit: 1,
            },
          },
        }),
      ),
    [id, version],
  );

  const context = useMemo<RecordContext | null>(() => {
    if (record === null) return null;
    const stages = lists?.ok ? lists.data[kind] : [];
    const roomList = rooms?.ok ? rooms.data : [];
    return {
      kind,
      id,
      ref: kind === 'plant' ? { plant_id: id } : { explant_id: id },
      name: props.title(record),
      stages,
      stageName: (key) => stages.find((s) => s.key === key)?.name ?? words(key),
      rooms: roomList,
      roomName: (roomId) =>
        roomId === null ? null : (roomList.find((r) => r.id === roomId)?.name ?? null),
      people: people?.ok ? people.data : [],
      currentRoom: record.current_stage?.room_id ?? null,
      currentStage: record.current_stage?.stage ?? null,
      version,
      changed: (text) => {
        setMessage(text);
        setForm(null);
        setVersion((v) => v + 1);
        screen.reload();
      },
      can,
    };
  }, [record, lists, rooms, people, version]);

  if (record === null || context === null) return screen.fallback;

  const archived = record.archived_at !== null;
  const writes = {
    stage: can('write:transfers'),
    transfer: can('write:transfers'),
    contamination: can('write:contaminations'),
    photo: can('write:assets'),
  };
  const anyWrite = !archived && Object.values(writes).some(Boolean);

  return (
    <RecordPageContext.Provider value={context}>
      {back}
      <ScreenHeader title={props.title(record)} lead={undefined}>
        <div class="record-chips">
          <Chip tone={statusTone(record.status)}>{words(record.status)}</Chip>
          {archived && <Chip tone="off">{strings.archived}</Chip>}
          {openLogs?.ok && openLogs.data.length > 0 && (
            <a class="record-chip-link" href="#contaminations-title">
              <Chip tone="bad">{strings.openContamination}</Chip>
            </a>
          )}
        </div>
      </ScreenHeader>
      <p class="record-subtitle">{props.subtitle(record)}</p>
      <p class="record-done" role="status">
        {message}
      </p>
      {props.facts(record, context)}

      {anyWrite && (
        <div class="record-actions" role="group" aria-label={strings.actions.label}>
          {writes.stage && (
            <ActionButton open={form === 'stage'} onClick={() => setForm('stage')}>
              {strings.actions.stage}
            </ActionButton>
          )}
          {writes.transfer && (
            <ActionButton open={form === 'transfer'} onClick={() => setForm('transfer')}>
              {strings.actions.transfer}
            </ActionButton>
          )}
          {writes.contamination && (
            <ActionButton open={form === 'contamination'} onClick={() => setForm('contamination')}>
              {strings.actions.contamination}
            </ActionButton>
          )}
          {writes.photo && (
            <label class="button" for={PHOTO_INPUT_ID}>
              {strings.actions.photo}
            </label>
          )}
        </div>
      )}
      {form !== null && !archived && (
        <section class="panel record-form" aria-label={strings.actions[form]}>
          {form === 'stage' && <StageForm onCancel={() => setForm(null)} />}
          {form === 'transfer' && <TransferForm onCancel={() => setForm(null)} />}
          {form === 'contamination' && <ContaminationForm onCancel={() => setForm(null)} />}
        </section>
      )}

      <div class="record-parts">
        <div class="record-column">
          <TimelinePart />
          <TransfersPart />
          <ContaminationsPart />
          {props.related?.(record)}
        </div>
        <div class="record-column">
          <PhotosPart writable={writes.photo && !archived} />
          <CommentsPart />
          <CustomFieldsPart values={record.custom_fields} />
        </div>
      </div>
      <ArchivePanel archivedAt={record.archived_at} />
    </RecordPageContext.Provider>
  );
}

function ActionButton(props: { open: boolean; onClick: () => void; children: ComponentChildren }) {
  return (
    <button
      type="button"
      class={props.open ? 'button button-primary' : 'button'}
      aria-expanded={props.open}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

/** The lab's own fields on the record, as set: a key in words, and its value. */
function CustomFieldsPart(props: { values: Record<string, unknown> }) {
  const entries = Object.entries(props.values).filter(([, value]) => value !== null);
  const shown = (value: unknown): string =>
    typeof value === 'boolean'
      ? value
        ? strings.customFields.yes
        : strings.customFields.no
      : typeof value === 'string' || typeof value === 'number'
        ? String(value)
        : JSON.stringify(value);
  return (
    <section class="panel" aria-labelledby="custom-fields-title">
      <h2 id="custom-fields-title">{strings.customFields.title}</h2>
      {entries.length === 0 ? (
        <p class="muted">{strings.customFields.empty}</p>
      ) : (
        <dl class="facts">
          {entries.map(([key, value]) => (
            <>
              <dt key={`${key}-name`}>{words(key)}</dt>
              <dd key={`${key}-value`}>{shown(value)}</dd>
            </>
          ))}
        </dl>
      )}
    </section>
  );
}
