import { useMemo } from 'preact/hooks';
import { api, call } from '../api/client';
import { useAnswer } from './answer';

/** Member names by id; null while the people directory loads. */
export type PeopleNames = ReadonlyMap<string, string> | null;

/**
 * Member names by id (the people directory, first 200), for the ids records
 * carry (`assigned_to`, `logged_by`, `resolved_by`, …); null while they load, so a
 * screen shows no name rather than a wrong one ("Someone") for a moment.
 */
export function usePeopleNames(): PeopleNames {
  const people = useAnswer(() =>
    call(api.GET('/api/v1/people', { params: { query: { limit: 200 } } })),
  );
  return useMemo(() => {
    if (people === null) return null;
    const map = new Map<string, string>();
    if (people.ok) for (const person of people.data) map.set(person.id, person.name);
    return map;
  }, [people]);
}

/**
 * A member's name: null while the names load (show nothing yet), `unknown` for an
 * id the directory does not hold (a former member, or the directory unreadable).
 */
export function personName(people: PeopleNames, id: string, unknown: string): string | null {
  if (people === null) return null;
  return people.get(id) ?? unknown;
}
