import type { Schemas } from '../../api/client';
import type { operations } from '../../api/schema';
import type { Tone } from '../../ui/parts';
import { words } from '../../ui/words';
import { strings } from './strings';

export type Contamination = Schemas['Contamination'];
type Resolve = NonNullable<
  operations['resolveContamination']['requestBody']
>['content']['application/json'];
export type Outcome = Resolve['outcome'];

const OUTCOME_WORDS: Record<Outcome, string> = strings.outcomes;

/** How a contamination can end, as the API names it, in words. */
export const OUTCOMES = Object.entries(OUTCOME_WORDS) as [Outcome, string][];

export const outcomeWords = (outcome: string): string =>
  OUTCOME_WORDS[outcome as Outcome] ?? words(outcome);

/** Statuses that still need attention (the API's `open` filter). */
const OPEN = ['active', 'quarantined', 'under investigation'];
export const isOpen = (c: Contamination): boolean => OPEN.includes(c.status);

/** Open trouble red, watched amber, resolved green, archived grey. */
export function contaminationTone(status: string): Tone {
  if (status === 'active') return 'bad';
  if (status === 'quarantined' || status === 'under investigation') return 'warn';
  if (status === 'resolved') return 'ok';
  return 'off';
}

/** What it is, in words: the type (or its own words when other). */
export const typeWords = (c: Contamination): string =>
  c.type === 'other' && c.type_other ? c.type_other : c.type ? words(c.type) : '–';
