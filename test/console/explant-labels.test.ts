import { describe, expect, it } from 'vitest';
import {
  nextNumber,
  numberedLabels,
  plantCode,
  shortCode,
} from '../../web/src/features/records/explant-labels.js';

/** The labels Initiate explants and New explant offer for a plant's explants. */
describe('explant labels', () => {
  it("takes the plant's code, else a short form of its name", () => {
    expect(plantCode({ external_id: 'MON-TC', name: 'anything' })).toBe('MON-TC');
    expect(plantCode({ external_id: '  ', name: "Monstera 'Thai Constellation'" })).toBe('MON-TC');
    expect(shortCode('Ficus lyrata')).toBe('FIC-L');
    expect(shortCode('Anthurium')).toBe('ANT');
    expect(shortCode('Phalænopsis équestris')).toBe('PHA-E');
    expect(shortCode('—')).toBe('EX');
  });

  it('numbers them in two digits at least, more when they need', () => {
    expect(numberedLabels('PHG', 1, 3)).toEqual(['PHG-01', 'PHG-02', 'PHG-03']);
    expect(numberedLabels('PHG', 98, 3)).toEqual(['PHG-098', 'PHG-099', 'PHG-100']);
  });

  it("starts after the highest number of the code among the plant's labels, in any case", () => {
    expect(nextNumber('PHG', [])).toBe(1);
    expect(nextNumber('PHG', ['PHG-01', 'phg-07', null, 'PHG-03b', 'PHGX-40', 'PHG-02'])).toBe(8);
  });
});
