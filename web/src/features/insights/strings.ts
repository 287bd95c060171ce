/** The words of the Insights screen, in one place for translation. */

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** A share as people read it: `12.5 %`. */
export const percent = (share: number | null): string =>
  share === null ? '–' : `${Number((share * 100).toFixed(1))} %`;
/** A rate as people read it: `×2.35`. */
export const times = (rate: number | null): string =>
  rate === null ? '–' : `×${Number(rate.toFixed(2))}`;
/** A count, with the lab's thousands separators; huge projections stay readable. */
export const count = (n: number): string =>
  n >= 1e12 ? n.toExponential(2) : Math.round(n).toLocaleString();

export const strings = {
  title: 'Insights',
  lead: 'What your records say about contamination, multiplication and losses, and a planner for orders.',
  labShort: 'Whole lab',
  lab: 'You see the whole lab’s figures.',
  ownShort: 'Your own',
  own: 'You see your own figures: the handlings you recorded. Managers and above see the whole lab’s.',
  stagesLab: 'Losses by stage are the whole lab’s, whoever looks.',
  loading: 'Working it out…',
  views: {
    label: 'Insights',
    contamination: 'Contamination',
    multiplication: 'Multiplication',
    stages: 'Stages',
    plan: 'Planner',
  },
  filters: {
    title: 'Filters',
    toggle: (summary: string) => `Filters: ${summary}`,
    lastYear: 'last year',
    by: 'Group by',
    since: 'From',
    until: 'To',
    window: 'Days a contamination counts',
    windowHint: 'After a handling, before the next one (default 21).',
    show: 'Show',
    badPeriod: '“From” is after “To”.',
    defaultPeriod: 'The last year, unless you pick dates.',
  },
  by: {
    operator: 'Person',
    location: 'Hood or place',
    media_batch: 'Media batch',
    recipe: 'Recipe',
    room: 'Room',
    stage: 'Stage',
    week: 'Week',
  } as Record<string, string>,
  contamination: {
    title: (by: string) => `Contamination by ${by.toLowerCase()}`,
    help: 'Bar: the share of handlings followed by a contamination. Thin line: its likely range (95 %), wide when there were few. Dashed line: the lab’s rate. Red and “worse” only when the whole range is above it.',
    helpOwn:
      'Bar: the share of your handlings followed by a contamination. Thin line: its likely range (95 %). Dashed line: your overall rate. Red and “worse” only when the whole range is above it.',
    overall: (rate: number | null, contaminated: number, exposures: number) =>
      `Overall: ${percent(rate)} (${contaminated} of ${plural(exposures, 'handling')})`,
    none: 'No handlings in this period.',
    worse: 'worse',
    worseLong: 'worse than overall',
    columns: ['Group', 'Rate', 'Contaminated', 'Handlings', '95 % range', 'Behind it'],
    range: (low: number, high: number) => `${percent(low)} – ${percent(high)}`,
    table: (by: string) => `Contamination by ${by.toLowerCase()}, as a table`,
    figure: (by: string, groups: number, worse: number) =>
      `Bar chart of ${plural(groups, 'group')} by ${by.toLowerCase()}, highest rate first; ${worse === 0 ? 'none is' : plural(worse, 'group is', 'groups are')} worse than overall. The table below has the same figures.`,
  },
  trend: {
    title: 'Weekly trend',
    help: 'The contamination rate of each ISO week, with its 95 % range as a band.',
    legend: { time: 'Week', min: '95 % low', max: '95 % high' },
    series: 'Rate',
    figure: (weeks: number) =>
      `Line chart of the rate of ${plural(weeks, 'week')}, oldest first, with its 95 % range. The table below has the same figures.`,
    table: 'Weekly contamination, as a table',
    columns: ['Week', 'Rate', 'Contaminated', 'Handlings', '95 % range'],
    none: 'No handlings in this period.',
  },
  multiplication: {
    title: 'Multiplication by line',
    help: 'How many vessels a line makes of one in four weeks (the geometric mean of its transfers’ rates, stretched to 28 days). Each figure rests on the handlings counted beside it.',
    none: 'No transfers with vessel counts in this period.',
    columns: ['Line', 'Handlings', 'Per transfer', 'In 4 weeks', 'Days between transfers'],
    table: 'Multiplication by line, as a table',
    figure: (lines: number) =>
      `Bar chart of the 4-week rate of ${plural(lines, 'line')}, fastest first. The table below has the same figures.`,
    rests: (n: number) => `on ${plural(n, 'handling')}`,
  },
  stages: {
    title: 'Where cultures are lost',
    help: 'Of the explants that entered each stage in the period: how many moved on, are still there, or ended there.',
    none: 'No explant entered a stage in this period.',
    columns: [
      'Stage',
      'Entered',
      'Moved on',
      'Still there',
      'Discarded',
      'Contaminated, discarded',
      'Lost',
      'Retired',
      'Median days',
    ],
    table: 'Stages, as a table',
    figure: (stages: number) =>
      `Bar chart of the explants that entered each of ${plural(stages, 'stage')}, in the lab’s order. The table below says what became of them.`,
  },
  plan: {
    title: 'Planner',
    help: 'A line, how many plantlets and by when: how many vessels to start, from the line’s own multiplication (else its species’, else the lab’s).',
    line: 'Line (plant)',
    target: 'Plantlets needed',
    by: 'Needed by',
    run: 'Make the plan',
    pickLine: 'Pick a line first.',
    print: 'Print the plan',
    needed: 'Vessels needed on the day',
    toStart: 'Vessels to start today',
    startBy: 'Start multiplying the current vessels by',
    late: 'Too late: the current vessels cannot get there in time. Start new vessels today.',
    cannot: 'The current vessels cannot reach it (none, or the line does not multiply).',
    current: 'Vessels of the line now',
    band: (low: number, high: number) => `between ${count(low)} and ${count(high)}`,
    rates: 'Rates used',
    whose: 'Whose',
    source: { line: 'the line’s own', species: 'its species’', lab: 'the lab’s' } as Record<
      string,
      string
    >,
    rateUsed: (source: string, n: number) => `${source}, from ${plural(n, 'transfer')}`,
    rate4w: 'In 4 weeks',
    rateBand: 'Low – high',
    perVessel: 'Plantlets per vessel',
    projection: 'Week by week',
    projectionNow: 'The next 12 weeks of the line’s current vessels',
    legend: { time: 'Date', min: 'low', max: 'high' },
    series: 'Vessels',
    columns: ['Week', 'Date', 'Vessels', 'Low', 'High', 'Plantlets'],
    table: 'The projection, as a table',
    figure:
      'Vessels projected week by week, with the low–high band. The table below has the same figures.',
    printed: (at: string) => `Printed ${at}`,
  },
  drill: {
    show: 'Handlings',
    showFor: (label: string) => `The handlings behind ${label}`,
    title: (label: string) => `Handlings behind “${label}”`,
    which: 'Which handlings',
    only: { all: 'All', true: 'Contaminated', false: 'Not contaminated' },
    close: 'Close',
    none: 'No handlings.',
    more: 'More handlings',
    table: (label: string) => `The handlings behind ${label}`,
    columns: ['When', 'Explant', 'Handling', 'By', 'Hood or place', 'Stage', 'Afterwards'],
    kinds: {
      initiation: 'started',
      transfer: 'transfer',
      split: 'split',
      merge: 'merge',
    } as Record<string, string>,
    contaminated: 'contaminated',
    clean: 'no contamination',
    tapBar: 'Tap a bar, or “Handlings” in the table, for the handlings behind it.',
  },
};
