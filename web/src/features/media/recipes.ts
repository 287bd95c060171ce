import { useMemo } from 'preact/hooks';
import { api, call } from '../../api/client';
import { useAnswer } from '../../ui/answer';
import type { Recipe } from './model';

/** The lab's media recipes the person sees (first 100), by id; null while they load. */
export function useRecipes(): ReadonlyMap<string, Recipe> | null {
  const answer = useAnswer(() =>
    call(api.GET('/api/v1/media-recipes', { params: { query: { limit: 100 } } })),
  );
  return useMemo(() => {
    if (answer === null) return null;
    return new Map(answer.ok ? answer.data.map((recipe) => [recipe.id, recipe] as const) : []);
  }, [answer]);
}
