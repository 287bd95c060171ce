import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { api, call, type Answer } from '../../../api/client';
import { useSignedIn } from '../../../api/session';
import { useAnswer } from '../../../ui/answer';
import { Confirm } from '../../../ui/list';
import { Chip, ScreenHeader } from '../../../ui/parts';
import { useRecordScreen } from '../../../ui/record-screen';
import { useTitle } from '../../../ui/title';
import { statusTone } from '../model';
import { words } from '../../../ui/words';
import { ArchivePanel } from './archive';
import { CommentsPart } from './comments';
import { useBenchForms, type BenchFormName, type BenchForms, type KindFormName } from './bench';
import { RecordPageContext, type Kind, type RecordContext } from './context';
import { ContaminationForm, StageForm, TransferForm } from './forms';
import { ContaminationsPart, TimelinePart, TransfersPart } from './history';
import { PhotosPart, PHOTO_INPUT_ID } from './photos';
import { FamilyPart } from '../family/family';
import { RecallPanel } from '../family/recall';
import { SplitForm, type SplitSource } from '../family/split';
import { strings } from '../strings';

/** What a record page needs of a plant or an explant. */
export interface RecordBase {
  readonly id: string;
  readonly status: string;
  readonly archived_at: string | null;
  readonly created_by: string | null;
  readonly custom_fields: Record<string, unknown>;
  readonly current_stage: {
    readonly stage: string;
    readonly name: string | null;
    readonly room_id: string | null;
    readonly entered_on: string;
  } | null;
}

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
  /** Chips of this kind only, beside the status (an explant with no vessels left). */
  chips?: (record: T) => ComponentChildren;
  /** Parts of this kind only (a plant's explants). */
  related?: (record: T) => ComponentChildren;
  /** What a split takes of a record that can be split (an explant with vessels), else null. */
  split?: (record: T) => SplitSource | null;
  /**
   * Bench forms of this kind only, those the person may use (a plant's New explant and
   * Initiate explants): each opened by its action button, closed by `onCancel`.
   */
  forms?: (record: T) => Partial<Record<KindFormName, (onCancel: () => void) => ComponentChildren>>;
}) {
  const { kind, id } = props;
  const { can, atLeast, session } = useSignedIn();
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
  const bench = useBenchForms();

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
    const changed = (text: string) => {
      setMessage(text);
      setVersion((v) => v + 1);
      screen.reload();
    };
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
      changed,
      saved: (text) => {
        changed(text);
        bench.saved();
      },
      kept: () => {
        setMessage(strings.done.waiting);
        bench.saved();
      },
      open: bench.open,
      can,
      // The API's rule: the member who created it, or a manager and above.
      mayChange: record.created_by === session.member.id || atLeast('manager'),
    };
  }, [record, lists, rooms, people, version, bench.form]);

  if (record === null || context === null) return screen.fallback;

  const archived = record.archived_at !== null;
  const splitSource = props.split?.(record) ?? null;
  const writes = {
    stage: can('write:transfers') && context.mayChange,
    transfer: can('write:transfers'),
    contamination: can('write:contaminations'),
    split: can('write:explants') && splitSource !== null,
    photo: can('write:assets'),
  };
  const kindForms = archived ? {} : (props.forms?.(record) ?? {});
  const kindNames = Object.keys(kindForms) as KindFormName[];
  const anyWrite = !archived && (kindNames.length > 0 || Object.values(writes).some(Boolean));
  // Said before any form: what this person may not do here, and who may.
  const rule = !archived && can('write:transfers') && !context.mayChange;
  const creator =
    record.created_by === null
      ? null
      : (context.people.find((p) => p.id === record.created_by)?.name ?? null);

  return (
    <RecordPageContext.Provider value={context}>
      {back}
      <ScreenHeader title={props.title(record)} lead={undefined}>
        <div class="record-chips">
          <Chip tone={statusTone(record.status)}>{words(record.status)}</Chip>
          {record.current_stage === null && <Chip tone="info">{strings.facts.noStage}</Chip>}
          {props.chips?.(record)}
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
          {kindNames.map((which) => (
            <ActionButton key={which} which={which} bench={bench}>
              {strings.actions[which]}
            </ActionButton>
          ))}
          {(['stage', 'transfer', 'split', 'contamination'] as const).map(
            (which) =>
              writes[which] && (
                <ActionButton key={which} which={which} bench={bench}>
                  {strings.actions[which]}
                </ActionButton>
              ),
          )}
          {writes.photo && (
            <label class="button" for={PHOTO_INPUT_ID}>
              {strings.actions.photo}
            </label>
          )}
        </div>
      )}
      {rule && (
        <p class="record-rule" id="record-rule">
          {strings.rule(strings.noun[kind], creator, record.created_by !== null)}
        </p>
      )}
      {bench.replacing !== null && bench.form !== null && (
        <Confirm
          label={strings.replace.label}
          question={strings.replace.question(strings.actions[bench.form])}
          yes={strings.replace.yes(strings.actions[bench.replacing])}
          no={strings.replace.no}
          busy={false}
          focus
          onYes={bench.replace}
          onNo={bench.keep}
        />
      )}
      {bench.form !== null && !archived && (
        <section
          class="panel record-form"
          aria-label={strings.actions[bench.form]}
          ref={bench.section}
          onInput={bench.touch}
        >
          {bench.form === 'stage' && <StageForm onCancel={bench.close} />}
          {bench.form === 'transfer' && <TransferForm onCancel={bench.close} />}
          {bench.form === 'contamination' && <ContaminationForm onCancel={bench.close} />}
          {bench.form === 'split' && splitSource !== null && (
            <SplitForm source={splitSource} onCancel={bench.close} />
          )}
          {kindNames.includes(bench.form as KindFormName) &&
            kindForms[bench.form as KindFormName]?.(bench.close)}
        </section>
      )}
      <FamilyPart />

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
      {!archived && <RecallPanel />}
      <ArchivePanel archivedAt={record.archived_at} />
    </RecordPageContext.Provider>
  );
}

function ActionButton(props: {
  which: BenchFormName;
  bench: BenchForms;
  children: ComponentChildren;
}) {
  const { which, bench } = props;
  const open = bench.form === which;
  return (
    <button
      type="button"
      ref={(element) => {
        bench.buttons.current[which] = element;
      }}
      class={open ? 'button button-primary' : 'button'}
      aria-expanded={open}
      onClick={() => bench.open(which)}
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
