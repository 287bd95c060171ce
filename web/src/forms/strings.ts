/** The words of the forms' shared pieces, in one place for translation. */
export const strings = {
  cancel: 'Cancel',
  ask: 'Before sending',
  left: (n: number, max: number) =>
    n <= 0 ? `The limit: ${max} characters.` : `${n} of ${max} characters left.`,
  picker: {
    find: 'Find',
    hint: 'A few letters of its name, species, code or label.',
    searching: 'Searching…',
    none: 'Nothing matches.',
    plant: 'plant',
    explant: 'explant',
    unlink: 'Remove link',
    change: 'Pick another',
    linked: 'Linked to',
    results: 'Matches',
  },
} as const;
