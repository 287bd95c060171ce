import { describe, expect, it } from 'vitest';
import { keyOf, moved } from '../../web/src/features/lab-settings/model.js';

/** The stage list editor's rules: the key a new stage's name makes, and moving a stage. */
describe('lab settings: stage keys and moves', () => {
  it('makes the snake_case key the API takes from a name as a lab writes it', () => {
    expect(keyOf('Hardening off')).toBe('hardening_off');
    expect(keyOf('  Root  Induction (phase 2) ')).toBe('root_induction_phase_2');
    expect(keyOf('Élongation')).toBe('elongation');
    expect(keyOf('2nd multiplication')).toBe('s_2nd_multiplication');
    expect(keyOf('***')).toBe('');
  });

  it('moves an item one place up or down, and nowhere past either end', () => {
    const list = ['a', 'b', 'c'] as const;
    expect(moved(list, 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(list, 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(list, 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(list, 2, 1)).toEqual(['a', 'b', 'c']);
    expect(list).toEqual(['a', 'b', 'c']);
  });
});
