import { api, call, type Answer } from '../../api/client';
import { batchName, dayPart } from '../media/model';
import { strings as media } from '../media/strings';
import type { PrintLabel } from './print';

/**
 * Media batches' labels: the QR code carries the batch's id (scanning it opens the
 * batch), the lines its recipe, its version and the day it was made, the day it
 * expires, its volume and pH. A batch that cannot be read refuses the whole sheet,
 * in the API's words.
 */
export async function mediaBatchLabels(ids: readonly string[]): Promise<Answer<PrintLabel[]>> {
  const recipes = await call(
    api.GET('/api/v1/media-recipes', { params: { query: { limit: 100 } } }),
  );
  const titles = new Map(recipes.ok ? recipes.data.map((r) => [r.id, r.title] as const) : []);
  const labels: PrintLabel[] = [];
  for (const id of ids) {
    const answer = await call(api.GET('/api/v1/media-batches/{id}', { params: { path: { id } } }));
    if (!answer.ok) return answer;
    const batch = answer.data;
    const expires = dayPart(batch.expires_at);
    labels.push({
      id: batch.id,
      code: batch.id,
      lines: [
        // The title alone first, so a long one keeps the version on the line below.
        titles.get(batch.recipe_id) ?? batchName(undefined, batch),
        media.labelLines.made(batch.recipe_version, dayPart(batch.prepared_at)!),
        ...(expires === null ? [] : [media.labelLines.expires(expires)]),
        [`${batch.volume_ml} mL`, batch.ph_measured === null ? '' : `pH ${batch.ph_measured}`]
          .filter(Boolean)
          .join(' · '),
      ],
    });
  }
  return { ok: true, data: labels, nextCursor: null };
}
