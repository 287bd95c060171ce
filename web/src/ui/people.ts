import { useMemo } from 'preact/hooks';
import { api, call } from '../api/client';
import { useAnswer } from './answer';

/**
 * Member names by id (the people directory, first 200), for the ids records
 * carry (`assigned_to`, `logged_by`, `resolved_by`, …).
 */
export function usePeopleNames(): Map<string, string> {
  const people = useAnswer(() =>
    call(api.GET('/api/v1/people', { params: { query: { limit: 200 } } })),
  );
  return useMemo(() => {
    const map = new Map<string, string>();
    if (people?.ok) for (const person of people.data) map.set(person.id, person.name);
    return map;
  }, [people]);
}
