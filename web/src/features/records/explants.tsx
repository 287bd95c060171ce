import { api, call, type Schemas } from '../../api/client';
import type { operations } from '../../api/schema';
import { Chip, TimeAgo } from '../../ui/parts';
import { listQuery, RecordList, type Filters } from './list';
import { statusTone } from './model';
import { recordHref } from '../../ui/links';
import { words } from '../../ui/words';
import { strings } from './strings';

type Explant = Schemas['Explant'];
type Query = NonNullable<operations['listExplants']['parameters']['query']>;
type Status = NonNullable<Query['status']>;

const STATUSES: readonly Status[] = [
  'active',
  'establishing',
  'growing',
  'needs_subculture',
  'quarantined',
  'senescing',
  'discarded',
  'retired',
  'lost',
];

function fetchPage(filters: Filters, cursor: string | null) {
  const query = listQuery(filters, cursor, STATUSES);
  return call(api.GET('/api/v1/explants', { params: { query } }));
}

export default function Explants() {
  const now = Date.now();
  return (
    <RecordList<Explant>
      path="/explants"
      csv={{ path: '/api/v1/explants', file: 'explants' }}
      imports={{ href: '/explants/import', scope: 'write:explants' }}
      strings={strings.lists.explants}
      statuses={STATUSES}
      fetchPage={fetchPage}
      select={{
        kind: 'explant',
        name: (explant) => explant.label ?? explant.external_id ?? explant.id,
      }}
      row={(explant, roomName) => {
        const room = roomName(explant.current_stage?.room_id ?? null);
        const due = new Date(explant.transfer_due_at).getTime();
        const ended = ['discarded', 'retired', 'lost'].includes(explant.status);
        return (
          <>
            <div class="row-main">
              <p class="row-title">
                <a href={recordHref.explant(explant.id)}>
                  {explant.label ?? explant.external_id ?? explant.id}
                </a>
              </p>
              <p class="muted small">
                {explant.batch_number ?? explant.external_id ?? ''}
                {explant.current_count !== null
                  ? ` · ${strings.lists.explants.vessels(explant.current_count)}`
                  : ''}
              </p>
              <p class="small">
                {explant.current_stage?.name ??
                  explant.current_stage?.stage ??
                  strings.lists.explants.noStage}
                {room ? ` · ${room}` : ''}
                {!ended && (
                  <>
                    {' · '}
                    {strings.lists.explants.transferDue} <TimeAgo at={explant.transfer_due_at} />
                  </>
                )}
              </p>
            </div>
            <div class="row-status">
              {!ended && explant.current_count === 0 ? (
                <Chip tone="warn">{strings.empty.chip}</Chip>
              ) : (
                <Chip tone={!ended && due < now ? 'warn' : statusTone(explant.status)}>
                  {words(explant.status)}
                </Chip>
              )}
            </div>
          </>
        );
      }}
    />
  );
}
