import { Chip } from '../../ui/parts';
import { plausibleRange } from './plausible';
import { strings } from './strings';

/**
 * The mark of a value no sensor of its type can report: a chip in words, and the
 * range a sensor reads, so the value is not taken for the room's.
 */
export function OutOfRange(props: { type: string; unit: string }) {
  const range = plausibleRange(props.type, props.unit);
  return (
    <span class="out-of-range">
      <Chip tone="warn">{strings.readings.outOfRange}</Chip>
      {range && (
        <span class="muted small">
          {' '}
          {strings.readings.rangeShort(range.min, range.max, range.unit)}
        </span>
      )}
    </span>
  );
}
