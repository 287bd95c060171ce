import { api, call } from '../../api/client';
import { useAnswer } from '../../ui/answer';
import { Chip, TimeAgo } from '../../ui/parts';
import { personName, type PeopleNames } from '../../ui/people';
import { evidenceWords, measuredOutside, photoOf, type Evidence, type SopStep } from './model';
import { strings } from './strings';

/**
 * A run's evidence, oldest first: what was done, measured, noted, photographed, and
 * when; with `people` (member names by id), who recorded it too; with its `step`, a
 * measurement outside the step's range marked so, in words beside the colour.
 */
export function EvidenceList(props: {
  events: Evidence[];
  withStep?: boolean;
  people?: PeopleNames;
  step?: SopStep;
}) {
  // No names yet (the directory is loading): no name, rather than a wrong one.
  const who = (event: Evidence) =>
    props.people === undefined || event.recordedBy === null
      ? null
      : personName(props.people, event.recordedBy, strings.evidence.formerMember);
  return (
    <ul class="evidence">
      {props.events.map((event) => {
        const name = who(event);
        const outside = measuredOutside(event, props.step);
        return (
          <li key={event.id} data-event-type={event.eventType}>
            <span class="evidence-what">
              {props.withStep ? `${event.stepKey}: ` : ''}
              {evidenceWords(event)}
            </span>{' '}
            {outside !== null && (
              <span class="evidence-outside" title={outside}>
                <Chip tone="warn">{strings.evidence.outOfRange}</Chip>{' '}
                <span class="small">{outside}</span>{' '}
              </span>
            )}
            <span class="muted small">
              <TimeAgo at={event.recordedAt} />
              {name !== null && ` ${strings.evidence.by(name)}`}
            </span>
            {photoOf(event) && <Photo assetId={photoOf(event)!} />}
          </li>
        );
      })}
    </ul>
  );
}

/** A photo of the run through its asset's signed link (valid 15 minutes, fetched when shown). */
function Photo(props: { assetId: string }) {
  const asset = useAnswer(
    () => call(api.GET('/api/v1/assets/{id}', { params: { path: { id: props.assetId } } })),
    [props.assetId],
  );
  if (asset === null || !asset.ok) return null;
  const src = sameServer(asset.data.view_url);
  return (
    <a href={src} target="_blank" rel="noopener" class="evidence-photo">
      <img src={src} alt={asset.data.caption ?? strings.evidence.photoAlt} loading="lazy" />
    </a>
  );
}

/**
 * A link to this server's own files (`/files/…`) opened from the console's
 * origin: the server's configured address may name it otherwise (a hostname
 * against an IP, another port), which the console's image policy would refuse.
 * An object store's link is kept as it is.
 */
function sameServer(url: string): string {
  const parsed = new URL(url, location.href);
  return parsed.pathname.startsWith('/files/') ? parsed.pathname + parsed.search : url;
}
