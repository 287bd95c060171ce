import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { useSignedIn } from '../../api/session';
import { DateField } from '../../forms/fields';
import { Chip, Notice, ScreenHeader } from '../../ui/parts';
import { FoldedFilters } from '../../ui/list';
import { useTitle } from '../../ui/title';
import { Contamination } from './contamination';
import { Multiplication, Stages } from './growth';
import { filtersOf, GROUPINGS, searchOf, VIEWS, type Filters } from './model';
import { Planner } from './planner';
import { strings } from './strings';

/**
 * Insights: the answers the records hold (contamination by any grouping, the weekly
 * trend, multiplication by line, the stage funnel, the planner). Managers and up see
 * the lab's figures; anyone else their own, and the screen says which. Everything
 * the screen shows is in its address.
 */
export default function Insights() {
  useTitle(strings.title);
  const { query, route } = useLocation();
  const { atLeast } = useSignedIn();
  const filters = filtersOf(query);
  const own = !atLeast('manager');
  const go = (changes: Partial<Filters>) => {
    const next = { ...filters, ...changes };
    // A group drilled into belongs to its grouping.
    const regrouped = next.by !== filters.by ? { group: '', contaminated: '' as const } : {};
    route(`/insights${searchOf({ ...next, ...regrouped })}`);
  };
  return (
    <div class="insights">
      <ScreenHeader title={strings.title} lead={strings.lead} />
      <p class="insight-who" data-own={own ? 'true' : 'false'}>
        <Chip tone="info">{own ? strings.ownShort : strings.labShort}</Chip>{' '}
        {own ? strings.own : strings.lab}
      </p>
      <nav class="insight-views no-print" aria-label={strings.views.label}>
        {VIEWS.map((view) => (
          <a
            key={view}
            class={filters.view === view ? 'button button-primary' : 'button'}
            aria-current={filters.view === view ? 'page' : undefined}
            href={`/insights${searchOf({ ...filters, view })}`}
          >
            {strings.views[view]}
          </a>
        ))}
      </nav>
      <FilterForm filters={filters} onApply={go} key={searchOf(filters)} />
      {filters.view === 'contamination' && (
        <Contamination filters={filters} own={own} onChange={go} />
      )}
      {filters.view === 'multiplication' && <Multiplication filters={filters} own={own} />}
      {filters.view === 'stages' && <Stages filters={filters} />}
      {filters.view === 'plan' && <Planner filters={filters} onPlan={go} />}
    </div>
  );
}

/** The grouping (contamination), the period and the window; a choice in the list applies at once. */
function FilterForm(props: { filters: Filters; onApply: (changes: Partial<Filters>) => void }) {
  const { filters } = props;
  const words = strings.filters;
  const [since, setSince] = useState(filters.since);
  const [until, setUntil] = useState(filters.until);
  const [window, setWindow] = useState(filters.window);
  const contamination = filters.view === 'contamination';
  const badPeriod = since !== '' && until !== '' && since > until;
  return (
    <form
      class="insight-filters no-print"
      aria-label={words.title}
      onSubmit={(event) => {
        event.preventDefault();
        if (!badPeriod) props.onApply({ since, until, window });
      }}
    >
      <FoldedFilters
        id="insight-filters-more"
        label={words.toggle(
          [
            contamination ? strings.by[filters.by] : '',
            filters.since || filters.until
              ? `${filters.since || '…'} – ${filters.until || '…'}`
              : words.lastYear,
          ]
            .filter(Boolean)
            .join(' · '),
        )}
      >
        {contamination && (
          <div class="field">
            <label for="insight-by">{words.by}</label>
            <select
              id="insight-by"
              value={filters.by}
              onChange={(event) =>
                props.onApply({
                  by: event.currentTarget.value as Filters['by'],
                  since,
                  until,
                  window,
                })
              }
            >
              {GROUPINGS.map((by) => (
                <option key={by} value={by}>
                  {strings.by[by]}
                </option>
              ))}
            </select>
          </div>
        )}
        <DateField name="since" label={words.since} value={since} onInput={setSince} error={null} />
        <DateField name="until" label={words.until} value={until} onInput={setUntil} error={null} />
        {contamination && (
          <div class="field">
            <label for="insight-window">{words.window}</label>
            <input
              id="insight-window"
              type="number"
              inputMode="numeric"
              min={1}
              max={365}
              placeholder="21"
              value={window}
              aria-describedby="insight-window-hint"
              onInput={(event) => setWindow(event.currentTarget.value)}
            />
            <p class="field-hint" id="insight-window-hint">
              {words.windowHint}
            </p>
          </div>
        )}
        <div class="actions">
          <button type="submit" class="button button-primary" disabled={badPeriod}>
            {words.show}
          </button>
        </div>
        {badPeriod && <Notice tone="bad">{words.badPeriod}</Notice>}
        {!filters.since && !filters.until && <p class="muted small">{words.defaultPeriod}</p>}
      </FoldedFilters>
    </form>
  );
}
