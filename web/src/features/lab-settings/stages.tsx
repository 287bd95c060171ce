import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { TextField } from '../../forms/fields';
import { useApiForm } from '../../forms/form';
import { useAnswer } from '../../ui/answer';
import { Chip, Notice } from '../../ui/parts';
import { keyOf, moved } from './model';
import { SettingsHeader, Saved, useCanChange } from './parts';
import { strings } from './strings';

type StageLists = Schemas['StageLists'];
type Stage = StageLists['plant'][number];
type Kind = 'plant' | 'explant';
const s = strings.stages;

/** The plant and explant stage lists: add, rename, reorder, take out (retired when in use). */
export default function StageSettings() {
  const canChange = useCanChange();
  const answer = useAnswer(() => call(api.GET('/api/v1/stage-lists')));
  const [lists, setLists] = useState<StageLists | null>(null);
  const current = lists ?? (answer?.ok ? answer.data : null);
  return (
    <>
      <SettingsHeader title={s.title} lead={s.lead} canChange={canChange} />
      {answer === null && <p>{s.loading}</p>}
      {answer !== null && !answer.ok && <Notice tone="bad">{answer.failure.error}</Notice>}
      {current !== null && (
        <>
          <p class="muted">{s.retireNote}</p>
          {(['explant', 'plant'] as const).map((kind) =>
            canChange ? (
              <StageListForm key={kind} kind={kind} lists={current} onSaved={setLists} />
            ) : (
              <StageListView key={kind} kind={kind} lists={current} />
            ),
          )}
        </>
      )}
    </>
  );
}

const titleOf = (kind: Kind) => (kind === 'plant' ? s.plant : s.explant);

function Retired(props: { stages: readonly Stage[]; onBack?: (stage: Stage) => void }) {
  return (
    <>
      <h3>{s.retiredTitle}</h3>
      {props.stages.length === 0 ? (
        <p class="muted">{s.retiredNone}</p>
      ) : (
        <ul class="rows">
          {props.stages.map((stage) => (
            <li class="row" key={stage.key}>
              <div class="row-main">
                <p>
                  {stage.name} <Chip tone="off">{s.retired}</Chip>
                </p>
                <p class="muted small">
                  {s.keyHint(stage.key)}. {s.retiredLine}
                </p>
              </div>
              {props.onBack && (
                <div class="row-actions">
                  <button type="button" class="button" onClick={() => props.onBack!(stage)}>
                    {s.bringBack(stage.name)}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function StageListView(props: { kind: Kind; lists: StageLists }) {
  const id = `stages-${props.kind}`;
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{titleOf(props.kind)}</h2>
      <ol>
        {props.lists[props.kind].map((stage) => (
          <li key={stage.key}>{stage.name}</li>
        ))}
      </ol>
      <Retired stages={props.lists.retired[props.kind]} />
    </section>
  );
}

function StageListForm(props: {
  kind: Kind;
  lists: StageLists;
  onSaved: (lists: StageLists) => void;
}) {
  const { kind } = props;
  const [stages, setStages] = useState<readonly Stage[]>(props.lists[kind]);
  const [newName, setNewName] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const form = useApiForm({
    fields: [],
    send: (key) =>
      call(
        api.PATCH('/api/v1/stage-lists', {
          params: { header: { 'idempotency-key': key } },
          body: { [kind]: withNew().map((stage) => ({ key: stage.key, name: stage.name.trim() })) },
        }),
      ),
    onSuccess: (lists) => {
      setStages(lists[kind]);
      setNewName('');
      setDirty(false);
      setSaved(s.saved(titleOf(kind)));
      props.onSaved(lists);
    },
  });
  const change = (next: readonly Stage[]) => {
    setStages(next);
    setDirty(true);
    setSaved(null);
  };
  // A name typed in "New stage" goes with the list when it is saved, added or not.
  const withNew = () => {
    const name = newName.trim();
    return name === '' ? stages : [...stages, { key: keyOf(name), name }];
  };
  const add = () => {
    if (newName.trim() === '') return;
    change(withNew());
    setNewName('');
  };
  const title = titleOf(kind);
  return (
    <section class="panel" aria-label={title}>
      <BenchForm title={title} save={s.save(title)} form={form}>
        <ol class="stage-edit">
          {stages.map((stage, index) => (
            <li key={stage.key} class="stage-edit-row">
              <TextField
                name={`${kind}-${stage.key}`}
                label={s.nameOf(index + 1)}
                hint={s.keyHint(stage.key)}
                error={null}
                value={stage.name}
                maxLength={100}
                onInput={(event) =>
                  change(
                    stages.map((x, i) =>
                      i === index ? { ...x, name: event.currentTarget.value } : x,
                    ),
                  )
                }
              />
              <div class="actions">
                <button
                  type="button"
                  class="button"
                  aria-label={s.up(stage.name)}
                  disabled={index === 0}
                  onClick={() => change(moved(stages, index, -1))}
                >
                  <span aria-hidden="true">↑</span> {s.upShort}
                </button>
                <button
                  type="button"
                  class="button"
                  aria-label={s.down(stage.name)}
                  disabled={index === stages.length - 1}
                  onClick={() => change(moved(stages, index, 1))}
                >
                  <span aria-hidden="true">↓</span> {s.downShort}
                </button>
                <button
                  type="button"
                  class="button button-quiet"
                  aria-label={s.remove(stage.name)}
                  onClick={() => change(stages.filter((_, i) => i !== index))}
                >
                  {s.removeShort}
                </button>
              </div>
            </li>
          ))}
        </ol>
        <div class="stage-add">
          <TextField
            name={`${kind}-new`}
            label={s.newName}
            hint={newName.trim() ? s.keyHint(keyOf(newName)) : s.newHint}
            error={null}
            value={newName}
            maxLength={100}
            onInput={(event) => setNewName(event.currentTarget.value)}
          />
          <button type="button" class="button" onClick={add}>
            {s.addStage}
          </button>
        </div>
        {dirty && <p class="muted">{s.unsaved}</p>}
        <Saved message={saved} />
      </BenchForm>
      <Retired
        stages={props.lists.retired[kind].filter((r) => !stages.some((x) => x.key === r.key))}
        onBack={(stage) => change([...stages, stage])}
      />
    </section>
  );
}
