import { useEffect, useState } from 'preact/hooks';
import { api, call, type Answer, type Failure } from '../api/client';
import { useLoaded } from '../ui/answer';
import { Chip, Notice, ScreenHeader, TimeAgo } from '../ui/parts';
import { useTitle } from '../ui/title';
import { recordHref, words } from './record-words';
import { EvidenceList } from './sop-evidence';
import { Runner } from './sop-runner';
import {
  readRecord,
  recordName,
  runEnded,
  runTone,
  sopHref,
  type Evidence,
  type Sop,
  type SopRun,
  type SopStep,
} from './sop-words';

const strings = {
  title: 'SOP run',
  back: 'All SOP runs',
  loading: 'Loading the run…',
  version: (n: number | null) => (n === null ? '' : `version ${n}`),
  for: 'For',
  started: 'Started',
  completed: 'Completed',
  notes: 'Notes',
  record: 'What was recorded',
  nothing: 'Nothing recorded yet.',
  notRecorded: 'Nothing recorded for this step.',
  step: (n: number) => `Step ${n}`,
  otherVersion: (run: number | null, now: number | null) =>
    `This run follows version ${run ?? '?'} of the SOP; the version in force is now ${now ?? 'none'}, so the runner cannot show its steps. What was recorded is below.`,
  unknownStep: 'Other evidence',
} as const;

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

export default function SopRunPage(props: { params?: { id?: string } }) {
  const id = props.params?.id ?? '';
  const [run, setRun] = useState<SopRun | null>(null);
  const [events, setEvents] = useState<Evidence[]>([]);
  const [sop, setSop] = useState<Sop | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  useEffect(() => {
    void (async () => {
      const [runAnswer, trail] = await Promise.all([
        call(api.GET('/api/v1/sop-runs/{id}', { params: { path: { id } } })),
        readTrail(id),
      ]);
      if (!runAnswer.ok) return setFailure(runAnswer.failure);
      if (!trail.ok) return setFailure(trail.failure);
      const sopId = runAnswer.data.sopId;
      if (sopId !== null) {
        const sopAnswer = await call(
          api.GET('/api/v1/sops/{id}', { params: { path: { id: sopId } } }),
        );
        if (sopAnswer.ok) setSop(sopAnswer.data);
      }
      setEvents(trail.events);
      setRun(runAnswer.data);
    })();
  }, [id]);
  const kind = run?.explantId ? 'explant' : run?.plantId ? 'plant' : null;
  const recordId = run?.explantId ?? run?.plantId ?? null;
  const record = useLoaded(
    () =>
      kind === null || recordId === null
        ? Promise.resolve(null)
        : readRecord(kind, recordId).then((a) => (a.ok ? recordName(kind, a.data) : null)),
    [recordId],
  );
  useTitle(sop ? `${sop.title} · ${strings.title}` : strings.title);

  const back = (
    <p>
      <a href="/sop-runs">← {strings.back}</a>
    </p>
  );
  if (failure) {
    return (
      <>
        {back}
        <Notice tone="bad">{failure.error}</Notice>
      </>
    );
  }
  if (run === null) return <p aria-busy="true">{strings.loading}</p>;
  const steps: SopStep[] =
    sop?.version && sop.version.id === run.versionId ? sop.version.steps : [];
  const open = !runEnded(run.status);
  return (
    <>
      {back}
      <ScreenHeader title={sop?.title ?? strings.title}>
        <Chip tone={runTone(run.status)}>{words(run.status)}</Chip>
      </ScreenHeader>
      <dl class="facts">
        {kind && recordId && (
          <>
            <dt>{strings.for}</dt>
            <dd>
              <a href={recordHref[kind](recordId)}>{record ?? kind}</a>
            </dd>
          </>
        )}
        {run.sopId && (
          <>
            <dt>SOP</dt>
            <dd>
              <a href={sopHref(run.sopId)}>
                {sop?.title ?? 'SOP'} {strings.version(run.version)}
              </a>
            </dd>
          </>
        )}
        <dt>{strings.started}</dt>
        <dd>
          <TimeAgo at={run.startedAt} />
        </dd>
        {run.completedAt && (
          <>
            <dt>{strings.completed}</dt>
            <dd>
              <TimeAgo at={run.completedAt} />
            </dd>
          </>
        )}
        {run.notes && (
          <>
            <dt>{strings.notes}</dt>
            <dd>{run.notes}</dd>
          </>
        )}
      </dl>
      {open && steps.length > 0 && (
        <Runner
          run={run}
          steps={steps}
          events={events}
          onEvidence={(event) => setEvents((current) => [...current, event])}
          onClosed={setRun}
        />
      )}
      {open && steps.length === 0 && sop !== null && (
        <Notice>{strings.otherVersion(run.version, sop.version?.version ?? null)}</Notice>
      )}
      <RunRecord steps={steps} events={events} />
    </>
  );
}

/** The run's evidence step by step: what was done, measured, noted and photographed. */
function RunRecord(props: { steps: SopStep[]; events: Evidence[] }) {
  const known = new Set(props.steps.map((s) => s.id));
  const others = props.events.filter((e) => !known.has(e.stepKey));
  return (
    <section class="run-record" aria-labelledby="record-title">
      <h2 id="record-title">{strings.record}</h2>
      {props.events.length === 0 && <p>{strings.nothing}</p>}
      <ol class="run-record-steps">
        {props.steps.map((step, index) => {
          const mine = props.events.filter((e) => e.stepKey === step.id);
          return (
            <li key={step.id} data-step={step.id}>
              <h3>
                {strings.step(index + 1)}:{' '}
                <span class="run-record-instruction">{step.instruction}</span>
              </h3>
              {mine.length === 0 ? (
                <p class="muted">{strings.notRecorded}</p>
              ) : (
                <EvidenceList events={mine} />
              )}
            </li>
          );
        })}
      </ol>
      {others.length > 0 && (
        <>
          <h3>{strings.unknownStep}</h3>
          <EvidenceList events={others} withStep />
        </>
      )}
    </section>
  );
}
