import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { ENDED_EXPLANT_STATUSES } from '../explants/index.js';
import { DAY_MS } from './handlings.js';
import { livingVessels, namesOf } from './insights.repository.js';
import type { Forecast, ForecastQuery } from './insights.schemas.js';
import type { Tally } from './kept.js';
import { periodOf } from './period.js';
import { talliesIn, total } from './tallies.js';

type ForecastRecord = Static<typeof Forecast>;

/** The fewest 4-week rates a line's (or a species') own figures are used with. */
export const MIN_RATES = 3;

/** Weeks projected without a target. */
export const PLAIN_WEEKS = 12;

/** A projection's number, kept finite (JSON has no infinity) whatever the rates. */
const finite = (value: number) => Math.min(value, Number.MAX_VALUE);

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The spread (standard deviation) of n values from their sum and sum of squares; 0
 * when it is within rounding of none (equal values, as the counts of vessels make
 * them, leave a residue of the order of the last digits).
 */
function spreadOf(n: number, sum: number, squares: number): number {
  if (n < 2) return 0;
  const mean = sum / n;
  const variance = (squares - sum * mean) / (n - 1);
  return variance <= 1e-11 * (squares / n) ? 0 : Math.sqrt(variance);
}

/** The rates a forecast uses: the line's, else its species', else the lab's. */
function ratesFrom(
  tallies: readonly Tally[],
  plantId: string,
  speciesOf: (plantId: string | null) => string | undefined,
): ForecastRecord['rates'] {
  const species = speciesOf(plantId);
  const sources = [
    { source: 'line' as const, of: (t: Tally) => t.group_key === plantId },
    {
      source: 'species' as const,
      of: (t: Tally) => speciesOf(t.group_key === '' ? null : t.group_key) === species,
    },
    { source: 'lab' as const, of: () => true },
  ];
  for (const { source, of } of sources) {
    const figures = total(tallies.filter(of));
    if (figures.rated_4w < (source === 'lab' ? 1 : MIN_RATES)) continue;
    const n = figures.rated_4w;
    const mean = figures.ln_rate_4w_sum / n;
    const sd = spreadOf(n, figures.ln_rate_4w_sum, figures.ln_rate_4w_squares);
    return {
      source,
      handlings: n,
      rate_4w: finite(Math.exp(mean)),
      rate_4w_low: finite(Math.exp(mean - sd)),
      rate_4w_high: finite(Math.exp(mean + sd)),
      plantlets_per_vessel:
        figures.yielded === 0 ? null : figures.plantlets_per_vessel_sum / figures.yielded,
    };
  }
  throw errors.validation(
    'plant_id: no transfers with vessel counts over a cycle of a day or more in the period, ' +
      'in this line, its species or the lab: there is no rate to forecast with',
  );
}

/**
 * GET /insights/forecast: the line's vessels projected week by week with the
 * 4-week rate of the last year's handlings (the line's own when it has at least
 * three, else its species', else the lab's), with a low/high band one standard
 * deviation of the ln rates either side; with a target, how many vessels to start
 * today to hold the target plantlets on `by`, and the last day the line's current
 * vessels can be started to get there.
 */
export async function forecast(
  db: Db,
  principal: Principal,
  query: Static<typeof ForecastQuery>,
  records: RecordLookup,
  now: string,
): Promise<ForecastRecord> {
  const workspaceId = principal.workspaceId;
  if ((query.target_plantlets === undefined) !== (query.by === undefined)) {
    throw errors.validation('by: send target_plantlets and by together, or neither');
  }
  if ((await records.find(db, 'plant', workspaceId, query.plant_id)) === undefined) {
    throw errors.notFound('Plant');
  }
  const today = Date.parse(now.slice(0, 10));
  if (query.by !== undefined && Date.parse(query.by) <= today) {
    throw errors.validation(`by: ${query.by} is not after today (${dateOf(today)})`);
  }
  const period = periodOf(query, now);
  const [tallies, names, current] = await Promise.all([
    talliesIn(db, workspaceId, period, 'plant', null),
    namesOf(db, workspaceId),
    livingVessels(db, workspaceId, query.plant_id, ENDED_EXPLANT_STATUSES),
  ]);
  const rates = ratesFrom(tallies, query.plant_id, (id) =>
    id === null ? undefined : names.plants.get(id)?.species,
  );
  const growth = (rate: number, days: number) => rate ** (days / 28);
  const project = (start: number, weeks: number) =>
    Array.from({ length: weeks + 1 }, (_, week) => {
      const vessels = finite(start * growth(rates.rate_4w, week * 7));
      return {
        week,
        date: dateOf(today + week * 7 * DAY_MS),
        vessels,
        vessels_low: finite(start * growth(rates.rate_4w_low, week * 7)),
        vessels_high: finite(start * growth(rates.rate_4w_high, week * 7)),
        plantlets:
          rates.plantlets_per_vessel === null ? null : finite(vessels * rates.plantlets_per_vessel),
      };
    });
  const plant = { id: query.plant_id, label: names.plants.get(query.plant_id)?.name ?? '' };
  if (query.target_plantlets === undefined || query.by === undefined) {
    return {
      plant,
      current_vessels: current,
      rates,
      plan: null,
      weeks: project(current, PLAIN_WEEKS),
    };
  }
  if (rates.plantlets_per_vessel === null || rates.plantlets_per_vessel <= 0) {
    throw errors.validation(
      'target_plantlets: no transfer of the handlings the rates come from counted plantlets; ' +
        'there is no yield per vessel to plan with',
    );
  }
  const days = (Date.parse(query.by) - today) / DAY_MS;
  const needed = Math.ceil(query.target_plantlets / rates.plantlets_per_vessel);
  const toStart = (rate: number) => Math.max(1, Math.ceil(needed / growth(rate, days)));
  const startBy =
    current >= needed
      ? query.by
      : current > 0 && rates.rate_4w > 1
        ? dateOf(
            Date.parse(query.by) -
              Math.ceil((28 * Math.log(needed / current)) / Math.log(rates.rate_4w)) * DAY_MS,
          )
        : null;
  const vesselsToStart = toStart(rates.rate_4w);
  return {
    plant,
    current_vessels: current,
    rates,
    plan: {
      target_plantlets: query.target_plantlets,
      by: query.by,
      vessels_needed: needed,
      vessels_to_start: vesselsToStart,
      vessels_to_start_low: toStart(rates.rate_4w_high),
      vessels_to_start_high: toStart(rates.rate_4w_low),
      start_by: startBy,
      late: startBy === null || Date.parse(startBy) < today,
    },
    weeks: project(vesselsToStart, Math.floor(days / 7)),
  };
}
