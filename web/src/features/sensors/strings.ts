import { words } from '../../ui/words';
import type { ChartSeries, Preset } from './chart-data';

/** The words of the sensor readings (a device's or a room's chart and table), in one place for translation. */
export const strings = {
  readings: {
    title: 'Readings',
    ranges: 'Range',
    presets: { '24h': '24 h', '7d': '7 days', '30d': '30 days' } satisfies Record<Preset, string>,
    pick: 'Pick dates',
    from: 'From',
    to: 'To',
    show: 'Show',
    badRange: 'Pick a “to” date on or after the “from” date.',
    loading: 'Loading the chart…',
    none: 'No readings in this range.',
    bucket: (size: string) => `one point per ${size}`,
    bucketWords: {
      '1m': 'minute',
      '5m': '5 minutes',
      '15m': '15 minutes',
      '1h': 'hour',
      '6h': '6 hours',
      '1d': 'day',
    } as Record<string, string>,
    caption: (s: ChartSeries, count: number, low: number, high: number) =>
      `${count} reading${count === 1 ? '' : 's'}, from ${low} to ${high} ${s.unit}.`,
    latest: (value: number, unit: string, at: string) =>
      ` Latest ${value} ${unit} at ${new Date(at).toLocaleString()}.`,
    chartHelp:
      'The line is the mean of each point, the band its lowest to highest; a gap means no readings.',
    table: (label: string) => `${label}: values table`,
    columns: ['Time', 'Readings', 'Lowest', 'Mean', 'Highest', 'Last'] as const,
    raw: 'Raw readings',
    rawLead: 'Each reading as the sensor sent it, newest first.',
    rawColumns: ['Time', 'Type', 'Value', 'Device'] as const,
    rawEmpty: 'No readings in this range.',
    more: 'More readings',
    /** The chart's legend, beside the value under the cursor. */
    legend: { time: 'Time', min: 'min', max: 'max' },
    unknownDevice: 'a device',
    /** A value no sensor of its type can report. */
    outOfRange: 'out of range',
    rangeShort: (min: number, max: number, unit: string) =>
      `a sensor reads ${min} to ${max} ${unit}`,
    outOfRangeWhy: (type: string, min: number, max: number, unit: string) =>
      `No ${type} sensor reads outside ${min} to ${max} ${unit}: the value is stored as sent, but it is not the room’s. Check the sensor.`,
    someOutOfRange: (type: string, min: number, max: number, unit: string) =>
      `Some readings here are out of range: no ${type} sensor reads outside ${min} to ${max} ${unit}. They are stored as sent and pull the figures off; check the sensor.`,
  },
  /** A sensor type's name: `24.5 °C` reads as Temperature. */
  types: {
    temperature: 'Temperature',
    humidity: 'Humidity',
    ph: 'pH',
    co2: 'CO₂',
    light: 'Light',
    other: 'Other',
  } as Record<string, string>,
} as const;

/** A sensor type's name, or the API's word for a type without one. */
export const sensorWords = (type: string): string => strings.types[type] ?? words(type);
