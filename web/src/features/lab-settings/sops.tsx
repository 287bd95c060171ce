import { useLocation } from 'preact-iso';
import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, TextAreaField, TextField } from '../../forms/fields';
import { given, textOf, useApiForm, useFormValues } from '../../forms/form';
import { usePagedList } from '../../ui/paged';
import { Chip, More } from '../../ui/parts';
import { SettingsList } from './list-screen';
import { useCanChange } from './parts';
import { strings } from './strings';

type SopSummary = Schemas['SopSummary'];
const s = strings.sops;

/** The lab's SOPs to write and version: a new one, then its steps and versions on its page. */
export default function SopSettings() {
  const canChange = useCanChange();
  const list = usePagedList<SopSummary>((cursor) =>
    call(
      api.GET('/api/v1/sops', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }),
    ),
  );
  return (
    <SettingsList
      words={s}
      canChange={canChange}
      list={list}
      newForm={(_, cancel) => <NewSop onCancel={cancel} />}
      row={(sop) => (
        <li class="row" key={sop.id}>
          <div class="row-main">
            <p class="row-title">
              <a href={`/settings/sops/${sop.id}`}>{sop.title}</a>
            </p>
            {sop.category && <p class="muted small">{sop.category}</p>}
          </div>
          <div class="row-status">
            {sop.currentVersion > 0 ? (
              <Chip tone="info">{s.latest(sop.currentVersion)}</Chip>
            ) : (
              <Chip tone="off">{s.noneInForce}</Chip>
            )}
          </div>
        </li>
      )}
    >
      <p class="muted">{s.pinned}</p>
    </SettingsList>
  );
}

function NewSop(props: { onCancel: () => void }) {
  const { route } = useLocation();
  const values = useFormValues({ title: '', description: '', category: '' });
  const v = values.now;
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      call(
        api.POST('/api/v1/sops', {
          params: { header: { 'idempotency-key': key } },
          body: {
            title: v.title.trim(),
            ...given({ description: textOf(v.description), category: textOf(v.category) }),
          },
        }),
      ),
    onSuccess: (sop) => route(`/settings/sops/${sop.id}`),
  });
  const field = bindFields(form, values);
  return (
    <BenchForm panel title={s.addTitle} save={s.save} form={form} onCancel={props.onCancel}>
      <TextField {...field.text('title')} label={s.titleField} required autocomplete="off" />
      <More>
        <TextAreaField {...field.text('description')} label={s.description} />
        <TextField {...field.text('category')} label={s.category} autocomplete="off" />
      </More>
    </BenchForm>
  );
}
