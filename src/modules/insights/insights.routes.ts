import type { Routes } from '../../kernel/routes/index.js';
import {
  ContaminationInsight,
  ContaminationInsightMeta,
  ContaminationInsightQuery,
  MultiplicationInsight,
  MultiplicationInsightMeta,
  MultiplicationInsightQuery,
} from './insights.schemas.js';
import { contaminationInsights, multiplicationInsights } from './insights.service.js';
import Type from 'typebox';

const OWN =
  'A member below manager gets the figures of the handlings they recorded only. ' +
  'Definitions: docs/insights.md.';

export function registerInsightRoutes(routes: Routes): void {
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
      'and its Wilson 95 % interval; meta.overall holds the same over every group. Media batches ' +
      'and recipes are not recorded with handlings: every exposure falls in "none recorded". ' +
      OWN,
    scope: 'read:insights',
    failureCode: 'INSIGHT_QUERY_FAILED',
    querystring: ContaminationInsightQuery,
    data: Type.Array(ContaminationInsight),
    meta: ContaminationInsightMeta,
    metaRequired: true,
    handler: (req, ctx) => contaminationInsights(ctx.db, ctx.principal, req.query, ctx.now),
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
      '4-week rate exp(ln(rate) × 28 / cycle) (`rate_4w`, over handlings with a cycle over 0 days), ' +
      'the mean cycle in days, and how many handlings each rests on. ' +
      OWN,
    scope: 'read:insights',
    failureCode: 'INSIGHT_QUERY_FAILED',
    querystring: MultiplicationInsightQuery,
    data: Type.Array(MultiplicationInsight),
    meta: MultiplicationInsightMeta,
    metaRequired: true,
    handler: (req, ctx) => multiplicationInsights(ctx.db, ctx.principal, req.query, ctx.now),
  });
}
