import { api, call, type Answer, type Failure } from '../../api/client';
import { useLoaded } from '../../ui/answer';
import { Chip, Fact, Notice, ScreenHeader, TimeAgo } from '../../ui/parts';
import { usePeopleNames } from '../../ui/people';
import { useRecordScreen } from '../../ui/record-screen';
import { useTitle } from '../../ui/title';
import { recordHref } from '../../ui/links';
import { EvidenceList } from './evidence';
import { Runner } from './runner';
import {
  readRecord,
  recordName,
  runChip,
  runEnded,
  sopHref,
  stepStates,
  type Evidence,
  type Sop,
  type SopRun,
  type SopStep,
} from './model';
import { strings } from './strings';

/** Every piece of a run's evidence, oldest first (a run's trail is a few dozen entries). */
async function readTrail(
  runId: string,
): Promise<{ ok: true; events: Evidence[] } | { ok: false; failure: Failure }> {
  const events: Evidence[] = [];
  let cursor: string | null = null;
  do {
    const answer: Answer<Evidence[]> = await call(
      api.GET('/api/v1/sop-runs/{id}/events', {
        params: { path: { id: runId }, query: { limit: 200, ...(cursor ? { cursor } : {}) } },
      }),
    );
    if (!answer.ok) return answer;
    events.push(...answer.data);
    cursor = answer.nextCursor;
  } while (cursor !== null);
  return { ok: true, events };
}

/** A run with its trail and the SOP it follows (null when the SOP cannot be read). */
interface RunScreen {
  run: SopRun;
  events: Evidence[];
  sop: Sop | null;
}

async function readRun(id: string): Promise<Answer<RunScreen>> {
  const [runAnswer, trail] = await Promise.all([
    call(api.GET('/api/v1/sop-runs/{id}', { params: { path: { id } } })),
    readTrail(id),
  ]);
  if (!runAnswer.ok) return runAnswer;
  if (!trail.ok) return trail;
  const sopId = runAnswer.data.sopId;
  const sopAnswer =
    sopId === null
      ? null
      : await call(api.GET('/api/v1/sops/{id}', { params: { path: { id: sopId } } }));
  return {
    ok: true,
    nextCursor: null,
    data: { run: runAnswer.data, events: trail.events, sop: sopAnswer?.ok ? sopAnswer.data : null },
  };
}

export default function SopRunPage(props: { params?: { id?: string } }) {
  const id = props.params?.id ?? '';
  const screen = useRecordScreen(() => readRun(id), id, {
    href: '/sop-runs',
    back: strings.run.back,
    loading: strings.run.loading,
  });
  const run = screen.record?.run ?? null;
  const sop = screen.record?.sop ?? null;
  const kind = run?.explantId ? 'explant' : run?.plantId ? 'plant' : null;
  const recordId = run?.explantId ?? run?.plantId ?? null;
  const record = useLoaded(
    () =>
      kind === null || recordId === null
        ? Promise.resolve(null)
        : readRecord(kind, recordId).then((a) => (a.ok ? recordName(kind, a.data) : null)),
    [recordId],
  );
  useTitle(sop ? `${sop.title} · ${strings.run.title}` : strings.run.title);

  if (screen.record === null || run === null) return screen.fallback;
  const { events } = screen.record;
  const { setRecord } = screen;
  const steps: SopStep[] =
    sop?.version && sop.version.id === run.versionId ? sop.version.steps : [];
  const open = !runEnded(run.status);
  return (
    <>
      {screen.back}
      <ScreenHeader title={sop?.title ?? strings.run.title}>
        <Chip tone={runChip(run).tone}>{runChip(run).words}</Chip>
      </ScreenHeader>
      <dl class="facts">
        {kind && recordId && (
          <Fact term={strings.run.for}>
            <a href={recordHref[kind](recordId)}>{record ?? kind}</a>
          </Fact>
        )}
        {run.sopId && (
          <Fact term={strings.run.sop}>
            <a href={sopHref(run.sopId)}>
              {sop?.title ?? strings.run.sop} {strings.run.version(run.version)}
            </a>
          </Fact>
        )}
        <Fact term={strings.run.started}>
          <TimeAgo at={run.startedAt} />
        </Fact>
        {run.completedAt && (
          <Fact term={strings.run.completed}>
            <TimeAgo at={run.completedAt} />
          </Fact>
        )}
        {run.notes && <Fact term={strings.run.notes}>{run.notes}</Fact>}
      </dl>
      {open && steps.length > 0 && (
        <Runner
          run={run}
          steps={steps}
          events={events}
          onEvidence={(event) => {
            setRecord((now) => ({ ...now, events: [...now.events, event] }));
            // The run's own words (steps done, skipped) as the API now counts them.
            void call(api.GET('/api/v1/sop-runs/{id}', { params: { path: { id } } })).then(
              (read) => read.ok && setRecord((now) => ({ ...now, run: read.data })),
            );
          }}
          onClosed={(closed) => setRecord((now) => ({ ...now, run: closed }))}
        />
      )}
      {open && steps.length === 0 && sop !== null && (
        <Notice>{strings.run.otherVersion(run.version, sop.version?.version ?? null)}</Notice>
      )}
      <RunRecord steps={steps} events={events} ended={!open} />
    </>
  );
}

/**
 * The run's evidence step by step: what was done, measured, noted and photographed, and
 * by whom; a skipped step says so (never done), and once the run has ended a step with
 * nothing recorded says "not done".
 */
function RunRecord(props: { steps: SopStep[]; events: Evidence[]; ended: boolean }) {
  const people = usePeopleNames();
  const known = new Set(props.steps.map((s) => s.id));
  const others = props.events.filter((e) => !known.has(e.stepKey));
  const states = stepStates(props.steps, props.events);
  return (
    <section class="run-record" aria-labelledby="record-title">
      <h2 id="record-title">{strings.run.record}</h2>
      {props.events.length === 0 && <p>{strings.run.nothing}</p>}
      <ol class="run-record-steps">
        {props.steps.map((step, index) => {
          const mine = props.events.filter((e) => e.stepKey === step.id);
          const state = states.get(step.id);
          return (
            <li key={step.id} data-step={step.id} data-state={state}>
              <h3>
                {strings.run.step(index + 1)}:{' '}
                <span class="run-record-instruction">{step.instruction}</span>
                {state === 'skipped' && (
                  <>
                    {' '}
                    <Chip tone="off">{strings.run.skipped}</Chip>
                  </>
                )}
                {state === 'open' && props.ended && (
                  <>
                    {' '}
                    <Chip tone="warn">{strings.run.notDone}</Chip>
                  </>
                )}
              </h3>
              {mine.length === 0 ? (
                <p class="muted">{strings.run.notRecorded}</p>
              ) : (
                <EvidenceList events={mine} people={people} step={step} />
              )}
            </li>
          );
        })}
      </ol>
      {others.length > 0 && (
        <>
          <h3>{strings.run.unknownStep}</h3>
          <EvidenceList events={others} withStep people={people} />
        </>
      )}
    </section>
  );
}
