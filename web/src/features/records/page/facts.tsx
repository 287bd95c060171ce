import type { ComponentChildren } from 'preact';
import { Fact, TimeAgo } from '../../../ui/parts';
import type { RecordContext } from './context';
import type { RecordBase } from './page';
import { strings } from '../strings';

/**
 * A plant's or explant's facts: where it stands (stage and room) first, then the
 * facts of its kind, then when it was recorded.
 */
export function RecordFacts(props: {
  record: RecordBase & { readonly created_at: string | null };
  page: RecordContext;
  children: ComponentChildren;
}) {
  const { record, page } = props;
  const f = strings.facts;
  const stage = record.current_stage;
  const room = page.roomName(stage?.room_id ?? null);
  return (
    <dl class="facts record-facts">
      <Fact term={f.stage}>
        {stage ? (
          <>
            <strong>{stage.name ?? page.stageName(stage.stage)}</strong> {f.since}{' '}
            <TimeAgo at={stage.entered_on} />
          </>
        ) : (
          <>
            <strong>{f.noStage}</strong>
            {record.archived_at === null && page.mayChange && page.can('write:transfers') && (
              <>
                {' '}
                <button
                  type="button"
                  class="button button-quiet button-inline"
                  onClick={() => page.open('stage')}
                >
                  {strings.stage.setOne}
                </button>
              </>
            )}
          </>
        )}
      </Fact>
      <Fact term={f.room}>{room ?? f.noRoom}</Fact>
      {props.children}
      <Fact term={f.created}>
        <TimeAgo at={record.created_at} />
      </Fact>
    </dl>
  );
}
