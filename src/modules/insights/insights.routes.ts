import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import { forecast } from './forecast.service.js';
import { stageInsights } from './losses.service.js';
import {
  ContaminationCsvRow,
  ForecastCsvRow,
  MultiplicationCsvRow,
  StageLossesCsvRow,
  Forecast,
  ForecastQuery,
  StageLosses,
  StageLossesMeta,
  StagesInsightQuery,
  ContaminationInsight,
  ContaminationInsightMeta,
  ContaminationInsightQuery,
  Exposure,
  ExposuresQuery,
  MultiplicationInsight,
  MultiplicationInsightMeta,
  MultiplicationInsightQuery,
} from './insights.schemas.js';
import { contaminationInsights, multiplicationInsights } from './insights.service.js';
import { listExposures } from './exposures.service.js';
import Type from 'typebox';

/** A group's row of a CSV answer: its id and label in two columns. */
const flatGroup = <R extends { group: { id: string | null; label: string } }>({
  group,
  ...figures
}: R) => ({ group_id: group.id, group_label: group.label, ...figures });

const OWN =
  'A member below manager gets the figures of the handlings they recorded only. ' +
  'Definitions: docs/insights.md.';

export function registerInsightRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.read({
    url: '/api/v1/insights/contamination',
    operationId: 'getContaminationInsights',
    tags: ['Insights'],
    summary: 'Contamination rates by group',
    description:
      'Handlings of explants (their making, transfers, splits) in the period (since, until; ' +
      'default the last year; at most 5 years) as exposures, grouped `by` operator, location ' +
      "(the transfer's from_location), media_batch, recipe, room, stage or ISO week; an exposure " +
      'is contaminated when a contamination of the explant is observed after it, before its next ' +
      'handling and within window_days (default 21). Each group: exposures, contaminated, the rate ' +
      'and its Wilson 95 % interval; meta.overall holds the same over every group. media_batch is ' +
      "the batch a transfer, a split's daughter or a new explant was put on, recipe that batch's. " +
      OWN,
    scope: 'read:insights',
    failureCode: 'INSIGHT_QUERY_FAILED',
    querystring: ContaminationInsightQuery,
    data: Type.Array(ContaminationInsight),
    meta: ContaminationInsightMeta,
    metaRequired: true,
    csv: { file: 'contamination', row: ContaminationCsvRow, rows: (data) => data.map(flatGroup) },
    handler: (req, ctx) => contaminationInsights(ctx.db, ctx.principal, req.query, ctx.now),
  });

  routes.list({
    url: '/api/v1/insights/exposures',
    operationId: 'listInsightExposures',
    tags: ['Insights'],
    summary: 'The exposures behind a contamination group',
    description:
      'The exposures (handlings of explants) that GET /insights/contamination counts in one group: ' +
      '`by` as there, `group` the id of its group (member, room, media batch, recipe, stage key), ' +
      'for location and week its label, or "none" for the exposures that name none; the same ' +
      'period (since, until) and window_days. contaminated: true lists the contaminated ones only ' +
      '(each with the contamination that counts against it), false the others. Newest first ' +
      '(handled_at). ' +
      OWN,
    scope: 'read:insights',
    failureCode: 'INSIGHT_QUERY_FAILED',
    querystring: ExposuresQuery,
    paging: { list: 'insight-exposures', csv: true },
    item: Exposure,
    handler: (req, ctx) => listExposures(ctx.db, ctx.principal, req.query, ctx.page, ctx.now),
  });

  routes.read({
    url: '/api/v1/insights/multiplication',
    operationId: 'getMultiplicationInsights',
    tags: ['Insights'],
    summary: 'Multiplication rates by group',
    description:
      'Transfers and splits of explants in the period (since, until; default the last year; at ' +
      'most 5 years) with vessels counted before and after, grouped `by` plant, species, stage, ' +
      'media_batch or operator: the geometric mean of vessels after / before (`rate`), of the ' +
      '4-week rate exp(ln(rate) × 28 / cycle) (`rate_4w`, over handlings with a cycle of a day or more), ' +
      'the mean cycle in days, and how many handlings each rests on. ' +
      OWN,
    scope: 'read:insights',
    failureCode: 'INSIGHT_QUERY_FAILED',
    querystring: MultiplicationInsightQuery,
    data: Type.Array(MultiplicationInsight),
    meta: MultiplicationInsightMeta,
    metaRequired: true,
    csv: { file: 'multiplication', row: MultiplicationCsvRow, rows: (data) => data.map(flatGroup) },
    handler: (req, ctx) => multiplicationInsights(ctx.db, ctx.principal, req.query, ctx.now),
  });

  routes.read({
    url: '/api/v1/insights/stages',
    operationId: 'getStageInsights',
    tags: ['Insights'],
    summary: 'Losses by stage',
    description:
      "Of the explants that entered each stage of the lab's explant list in the period (since, " +
      'until; default the last year; at most 5 years), of one plant (plant_id; 404 when not a ' +
      "plant of the workspace) or one species' plants (species), or of the whole lab: how many " +
      'moved on, are still there, or ended there (discarded, discarded for a contamination, lost, ' +
      "retired), and the median days in the stage of those that moved on. The lab's figures " +
      'whatever the role. Definitions: docs/insights.md.',
    scope: 'read:insights',
    failureCode: 'INSIGHT_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: StagesInsightQuery,
    data: Type.Array(StageLosses),
    meta: StageLossesMeta,
    metaRequired: true,
    csv: {
      file: 'stages',
      row: StageLossesCsvRow,
      rows: (data) =>
        data.map(({ stage, ...figures }) => ({
          stage_key: stage.key,
          stage_name: stage.name,
          ...figures,
        })),
    },
    handler: (req, ctx) => stageInsights(ctx.db, ctx.principal, req.query, deps.records, ctx.now),
  });

  routes.read({
    url: '/api/v1/insights/forecast',
    operationId: 'getForecast',
    tags: ['Insights'],
    summary: "A line's production forecast",
    description:
      "The line's (plant_id; 404 when not a plant of the workspace) living vessels projected week " +
      'by week with the geometric mean 4-week multiplication rate of the handlings in the period ' +
      "(since, until; default the last year): the line's own when it has at least 3 such rates, " +
      "else its species', else the lab's (`rates.source`), with a low/high band one standard " +
      'deviation of the ln rates either side. With target_plantlets and by (a date after today): ' +
      'the vessels needed on `by` (plantlets per vessel from the same handlings), how many to start ' +
      "today, and the last day to start from the line's current vessels (`start_by`). Without a " +
      'target: the current vessels over the next 12 weeks. Definitions: docs/insights.md.',
    scope: 'read:insights',
    failureCode: 'INSIGHT_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: ForecastQuery,
    data: Forecast,
    csv: { file: 'forecast', row: ForecastCsvRow, rows: (data) => data.weeks },
    handler: async (req, ctx) => ({
      data: await forecast(ctx.db, ctx.principal, req.query, deps.records, ctx.now),
    }),
  });
}
