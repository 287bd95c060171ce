import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, NumberField, TextAreaField, TextField } from '../../forms/fields';
import { countOf, useApiForm, useFormValues } from '../../forms/form';
import { usePagedList } from '../../ui/paged';
import { Chip } from '../../ui/parts';
import { SettingsList } from './list-screen';
import { useCanChange } from './parts';
import { strings } from './strings';

type Recipe = Schemas['MediaRecipe'];
type Component = Recipe['components'][number];
const s = strings.media;

/** The lab's media recipes: listed, new, edited (a new formulation is a new version). */
export default function MediaRecipeSettings() {
  const canChange = useCanChange();
  const list = usePagedList<Recipe>((cursor) =>
    call(
      api.GET('/api/v1/media-recipes', {
        params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } },
      }),
    ),
  );
  return (
    <SettingsList
      words={s}
      canChange={canChange}
      list={list}
      newForm={(added, cancel) => (
        <RecipeForm onCancel={cancel} onSaved={(recipe) => added(recipe, s.added(recipe.title))} />
      )}
      row={(recipe) => (
        <RecipeRow
          key={recipe.id}
          recipe={recipe}
          canChange={canChange}
          onChange={(changed) => list.upsert(changed)}
        />
      )}
    />
  );
}

/** `Sucrose, 30, g/L` a line, as the API's components (an edited one keeps its id). */
function componentsOf(text: string, before: readonly Component[]) {
  return text
    .split('\n')
    .map((line) => line.split(',').map((part) => part.trim()))
    .filter((parts) => parts[0] !== '')
    .map(([name, qty, unit]) => {
      const same = before.find((c) => c.name === name);
      return {
        ...(same ? { id: same.id } : {}),
        name: name!,
        qty: qty ?? '',
        unit: unit ? unit : null,
      };
    });
}

const linesOf = (components: readonly Component[]) =>
  components.map((c) => [c.name, c.qty, c.unit].filter(Boolean).join(', ')).join('\n');

function RecipeForm(props: {
  recipe?: Recipe;
  onSaved: (recipe: Recipe) => void;
  onCancel: () => void;
}) {
  const { recipe } = props;
  const values = useFormValues({
    title: recipe?.title ?? '',
    components: linesOf(recipe?.components ?? []),
    ph_target: recipe?.ph_target === null || !recipe ? '' : String(recipe.ph_target),
    notes: recipe?.notes ?? '',
  });
  const v = values.now;
  const body = () => ({
    title: v.title.trim(),
    components: componentsOf(v.components, recipe?.components ?? []),
    ph_target: countOf(v.ph_target) ?? null,
    notes: v.notes.trim(),
  });
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      recipe
        ? call(
            api.PATCH('/api/v1/media-recipes/{id}', {
              params: { path: { id: recipe.id }, header: { 'idempotency-key': key } },
              body: body(),
            }),
          )
        : call(
            api.POST('/api/v1/media-recipes', {
              params: { header: { 'idempotency-key': key } },
              // A lab's recipe is for the whole lab (the API's default keeps it to its writer).
              body: { ...body(), visibility: 'team' },
            }),
          ),
    onSuccess: props.onSaved,
  });
  const field = bindFields(form, values);
  return (
    <BenchForm
      panel={recipe === undefined}
      heading={recipe === undefined}
      title={recipe ? s.editTitle(recipe.title) : s.addTitle}
      save={recipe ? s.saveEdit : s.save}
      form={form}
      onCancel={props.onCancel}
    >
      <TextField {...field.text('title')} label={s.titleField} required autocomplete="off" />
      <TextAreaField
        {...field.text('components')}
        label={s.components}
        hint={s.componentsHint}
        rows={5}
      />
      <NumberField {...field.value('ph_target')} label={s.ph} />
      <TextAreaField {...field.text('notes')} label={s.notes} />
    </BenchForm>
  );
}

function RecipeRow(props: {
  recipe: Recipe;
  canChange: boolean;
  onChange: (recipe: Recipe) => void;
}) {
  const { recipe } = props;
  const [editing, setEditing] = useState(false);
  return (
    <li class="row" data-recipe={recipe.id}>
      <div class="row-main">
        <p class="row-title">{recipe.title}</p>
        <p class="muted small">
          {recipe.components
            .map((c) => [c.name, c.qty, c.unit].filter(Boolean).join(' '))
            .join(' · ')}
          {recipe.ph_target !== null ? ` · pH ${recipe.ph_target}` : ''}
        </p>
      </div>
      <div class="row-status">
        <Chip tone="info">{s.version(recipe.version)}</Chip>
      </div>
      {props.canChange && !editing && (
        <div class="row-actions">
          <button
            type="button"
            class="button"
            aria-label={`${s.edit} ${recipe.title}`}
            onClick={() => setEditing(true)}
          >
            {s.edit}
          </button>
        </div>
      )}
      {editing && (
        <div class="row-wide">
          <RecipeForm
            recipe={recipe}
            onCancel={() => setEditing(false)}
            onSaved={(changed) => {
              setEditing(false);
              props.onChange(changed);
            }}
          />
        </div>
      )}
    </li>
  );
}
