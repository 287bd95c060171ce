import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, TextAreaField, TextField } from '../../forms/fields';
import { given, hasError, textOf, useApiForm, useFormValues } from '../../forms/form';
import { More } from '../../ui/parts';
import { strings } from './strings';

type Sop = Schemas['Sop'];
const s = strings.sops;

/** An SOP's own fields (title, what it is for, category): a new SOP, or its details edited. */
export function SopDetails(props: {
  sop?: Sop;
  onSaved: (sop: Sop) => void;
  onCancel: () => void;
}) {
  const { sop } = props;
  const values = useFormValues({
    title: sop?.title ?? '',
    description: sop?.description ?? '',
    category: sop?.category ?? '',
  });
  const v = values.now;
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      sop
        ? call(
            api.PATCH('/api/v1/sops/{id}', {
              params: { path: { id: sop.id }, header: { 'idempotency-key': key } },
              // A field emptied is cleared (null), as the API takes it.
              body: {
                title: v.title.trim(),
                description: textOf(v.description) ?? null,
                category: textOf(v.category) ?? null,
              },
            }),
          )
        : call(
            api.POST('/api/v1/sops', {
              params: { header: { 'idempotency-key': key } },
              body: {
                title: v.title.trim(),
                ...given({ description: textOf(v.description), category: textOf(v.category) }),
              },
            }),
          ),
    onSuccess: props.onSaved,
  });
  const field = bindFields(form, values);
  return (
    <BenchForm
      panel
      title={sop ? s.detailsTitle : s.addTitle}
      save={sop ? s.saveDetails : s.save}
      form={form}
      onCancel={props.onCancel}
    >
      <TextField {...field.text('title')} label={s.titleField} required autocomplete="off" />
      <More open={sop !== undefined || hasError(form, ['description', 'category'])}>
        <TextAreaField {...field.text('description')} label={s.description} />
        <TextField {...field.text('category')} label={s.category} autocomplete="off" />
      </More>
    </BenchForm>
  );
}
