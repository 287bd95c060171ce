import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, call, type Failure } from '../../api/client';

/** The current demand of a genus: the latest signal the store sent for it. */
export interface Demand {
  readonly genus: string;
  readonly score: number;
  readonly observedAt: string;
}

export type DemandAnswer =
  | { readonly kind: 'loading' }
  | {
      readonly kind: 'ok';
      readonly current: readonly Demand[];
      scoreOf: (genus: string | null) => Demand | null;
    }
  | { readonly kind: 'not-in-plan'; readonly failure: Failure }
  | { readonly kind: 'failed'; readonly failure: Failure };

/** Signals read for the panel: the newest, from which each genus' latest is its demand. */
const SIGNALS_READ = 100;
/** Genera of the board looked up one by one when the newest signals do not name them. */
const LOOKUPS_MAX = 20;

/**
 * Demand per genus, as task scoring reads it: the latest signal of each genus.
 * The newest signals give the panel; a genus on the board that they do not name
 * is asked for by itself (`current=true`). A plan without demand answers 402,
 * which the screens say plainly.
 */
export function useDemand(genera: readonly string[]): DemandAnswer {
  const [answer, setAnswer] = useState<DemandAnswer>({ kind: 'loading' });
  const [latest, setLatest] = useState<ReadonlyMap<string, Demand>>(new Map());
  useEffect(() => {
    void call(api.GET('/api/v1/tasks/demand', { params: { query: { limit: SIGNALS_READ } } })).then(
      (result) => {
        if (!result.ok) {
          setAnswer(
            result.failure.status === 402
              ? { kind: 'not-in-plan', failure: result.failure }
              : { kind: 'failed', failure: result.failure },
          );
          return;
        }
        const map = new Map<string, Demand>();
        for (const signal of result.data) {
          const key = signal.genus.toLowerCase();
          if (!map.has(key))
            map.set(key, {
              genus: signal.genus,
              score: signal.demand_score,
              observedAt: signal.observed_at,
            });
        }
        setLatest(map);
        setAnswer({ kind: 'ok', current: [], scoreOf: () => null });
      },
    );
  }, []);

  const wanted = [...new Set(genera.map((g) => g.toLowerCase()))].filter((g) => !latest.has(g));
  const loaded = answer.kind === 'ok';
  useEffect(() => {
    if (!loaded || wanted.length === 0) return;
    let current = true;
    void Promise.all(
      wanted
        .slice(0, LOOKUPS_MAX)
        .map((genus) =>
          call(api.GET('/api/v1/tasks/demand', { params: { query: { genus, current: true } } })),
        ),
    ).then((results) => {
      if (!current) return;
      const map = new Map(latest);
      wanted.slice(0, LOOKUPS_MAX).forEach((genus, i) => {
        const result = results[i]!;
        const signal = result.ok ? result.data[0] : undefined;
        // None for this genus: remembered as 0 asked, so it is not asked again.
        map.set(
          genus,
          signal
            ? { genus: signal.genus, score: signal.demand_score, observedAt: signal.observed_at }
            : { genus, score: Number.NaN, observedAt: '' },
        );
      });
      setLatest(map);
    });
    return () => {
      current = false;
    };
  }, [loaded, wanted.join('\u0000')]);

  return useMemo(() => {
    if (answer.kind !== 'ok') return answer;
    const known = [...latest.values()].filter((d) => !Number.isNaN(d.score));
    return {
      kind: 'ok',
      current: known.sort((a, b) => b.score - a.score),
      scoreOf: (genus) => {
        if (genus === null) return null;
        const demand = latest.get(genus.toLowerCase());
        return demand === undefined || Number.isNaN(demand.score) ? null : demand;
      },
    };
  }, [answer, latest]);
}
