import { useLocation } from 'preact-iso';
import { api, call, type Schemas } from '../../api/client';
import { usePagedList } from '../../ui/paged';
import { Chip } from '../../ui/parts';
import { SettingsList } from './list-screen';
import { useCanChange } from './parts';
import { SopDetails } from './sop-details';
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
  return (
    <SopDetails onCancel={props.onCancel} onSaved={(sop) => route(`/settings/sops/${sop.id}`)} />
  );
}
