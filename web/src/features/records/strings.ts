/** The words of the plant and explant screens (their lists and record pages), in one place for translation. */
export const strings = {
  loading: 'Loading…',
  back: { plant: 'All plants', explant: 'All explants' },
  noun: { plant: 'plant', explant: 'explant' },
  archived: 'archived',
  openContamination: 'open contamination',
  archivedSince: 'Archived',
  archivedNotice: 'It is left out of lists, and its history is kept. Restore it to bring it back.',
  facts: {
    stage: 'Stage',
    since: 'since',
    noStage: 'No stage yet',
    room: 'Room',
    noRoom: 'No room',
    externalId: 'Code',
    species: 'Species',
    genus: 'Genus',
    family: 'Family',
    cultivar: 'Cultivar',
    source: 'Source',
    vessels: 'Vessels',
    vesselsNow: (now: number | null, initial: number | null) =>
      `${now ?? '–'} now${initial === null ? '' : ` (${initial} at the start)`}`,
    plantlets: 'Plantlets',
    batch: 'Batch',
    plant: 'Taken from',
    transferDue: 'Transfer due',
    created: 'Created',
    notes: 'Notes',
  },
  actions: {
    label: 'Record work',
    stage: 'Move stage',
    transfer: 'Record transfer',
    contamination: 'Report contamination',
    split: 'Split',
    photo: 'Take a photo',
    explant: 'New explant',
    initiate: 'Initiate explants',
    cancel: 'Cancel',
  },
  /** Why a member is not offered Move stage and Archive on this record. */
  rule: (noun: string, creator: string | null, known: boolean) =>
    !known
      ? `Moving this ${noun} to another stage or archiving it is for a manager or above. You can record transfers, contaminations and photos.`
      : `Moving this ${noun} to another stage or archiving it is for ${creator ?? 'the member'}, who created it, or a manager. You can record transfers, contaminations and photos.`,
  /** Another form asked for while one holds what was typed. */
  replace: {
    label: 'Discard the open form?',
    question: (form: string) => `“${form}” holds what you typed. Discard it?`,
    yes: (form: string) => `Discard, open “${form}”`,
    no: 'Keep typing',
  },
  done: {
    stage: (name: string) => `Moved to ${name}.`,
    transfer: (cycle: number | null) =>
      cycle === null ? 'Transfer recorded.' : `Transfer ${cycle} recorded.`,
    contamination: 'Contamination reported.',
    photo: 'Photo added.',
    comment: 'Comment added.',
    waiting: 'Saved on this device: waiting to send.',
    archived: 'Archived.',
    restored: 'Restored from the archive.',
  },
  stage: {
    title: 'Move to another stage',
    firstTitle: 'Set the first stage',
    setOne: 'Set its stage',
    stage: 'New stage',
    room: 'Room',
    noRoom: 'No room',
    enteredOn: 'Date of the move',
    enteredOnHint: 'Leave empty for now. An earlier date goes into the history.',
    notes: 'Notes',
    save: 'Move',
  },
  transfer: {
    title: 'Record a transfer onto fresh medium',
    vessels: 'Vessels now',
    vesselsHint: 'After the transfer: 0 or more.',
    plantletsHint: '0 or more.',
    empty:
      'No counts given: the culture keeps the counts it has. Record the transfer without counts?',
    emptyYes: 'Record without counts',
    zero: '0 vessels: nothing of this culture is left in a vessel. Record it?',
    zeroYes: 'Record 0 vessels',
    back: 'Go back to the counts',
    ask: 'Before recording',
    plantlets: 'Plantlets now',
    from: 'From',
    fromHint: 'e.g. Hood 1',
    to: 'To',
    toHint: 'e.g. Growth Room A',
    date: 'Date of the transfer',
    dateHint: 'Leave empty for today.',
    cycle: 'Transfer number',
    cycleHint: 'Leave empty for the next one.',
    notes: 'Notes',
    save: 'Record transfer',
  },
  contamination: {
    title: 'Report a contamination',
    type: 'What kind',
    typeOther: 'Describe the kind',
    typeOtherHint: 'Needed when the kind is “other”.',
    issue: 'What do you see?',
    issueHint: 'e.g. White fuzz on the medium in vessel 3',
    severity: 'Severity',
    vessels: 'Vessels affected',
    source: 'Suspected source',
    unknownSource: 'Not sure',
    markings: 'Vessel markings',
    markingsHint: 'Which vessels, as they are marked.',
    notes: 'Notes',
    save: 'Report',
  },
  timeline: {
    title: 'Stage timeline',
    current: 'current',
    until: 'until',
    empty: 'No stage recorded yet.',
    more: 'Older stages',
  },
  transfers: {
    title: 'Transfers',
    cycle: (n: number | null) => (n === null ? 'Transfer' : `Transfer ${n}`),
    counts: (vessels: number | null, plantlets: number | null) =>
      [
        vessels === null ? null : `${vessels} vessel${vessels === 1 ? '' : 's'}`,
        plantlets === null ? null : `${plantlets} plantlet${plantlets === 1 ? '' : 's'}`,
      ]
        .filter(Boolean)
        .join(' · '),
    route: (from: string | null, to: string | null) =>
      from && to ? `${from} → ${to}` : (to ?? from ?? ''),
    empty: 'No transfer recorded yet.',
    more: 'More transfers',
  },
  contaminations: {
    title: 'Contaminations',
    empty: 'No contamination reported. Good.',
    vessels: (n: number) => `${n} vessel${n === 1 ? '' : 's'} affected`,
    more: 'More contaminations',
  },
  photos: {
    title: 'Photos',
    empty: 'No photo yet.',
    file: 'Take or choose a photo',
    fileHint: 'A JPEG, PNG, WebP or GIF image.',
    caption: 'Caption',
    captionHint: 'Optional: what the photo shows.',
    preview: 'The photo to add',
    save: 'Add photo',
    reading: 'Preparing the photo…',
    more: 'More photos',
    open: (name: string) => `Open ${name} full size`,
  },
  comments: {
    title: 'Comments',
    empty: 'No comment yet.',
    body: 'Comment',
    bodyHint: 'Type @ and a name to mention someone.',
    mention: (name: string) => `Mention ${name}`,
    save: 'Comment',
    reply: 'reply',
    deleted: 'This comment was deleted.',
    more: 'More comments',
    someone: 'Someone',
  },
  customFields: {
    title: 'Custom fields',
    empty: 'No custom field set.',
    yes: 'yes',
    no: 'no',
  },
  explants: {
    title: 'Explants from this plant',
    empty: 'No explant taken from this plant yet.',
    more: 'More explants',
  },
  /** An explant's or a plant's family: where it came from and what came from it. */
  family: {
    title: 'Family',
    loading: 'Loading the family…',
    lead: {
      explant: 'Where this culture came from, and the cultures split from it.',
      plant: 'The cultures started from this plant, and those split from them.',
    },
    none: {
      explant:
        'No family recorded: it was not split from another culture, and none has been split from it yet.',
      plant: 'No culture started from this plant yet.',
    },
    self: { explant: 'this explant', plant: 'this plant' },
    relation: (generation: number, kind: 'plant' | 'explant') =>
      generation === 0
        ? kind === 'plant'
          ? 'This plant'
          : 'This explant'
        : generation === -1
          ? 'Parent'
          : generation === -2
            ? 'Grandparent'
            : generation < 0
              ? `${-generation} generations back`
              : kind === 'plant'
                ? generation === 1
                  ? 'Started from the plant'
                  : `Generation ${generation}`
                : generation === 1
                  ? 'Daughter'
                  : generation === 2
                    ? 'Granddaughter'
                    : `Generation ${generation}`,
    summary: (count: number, generations: number, more: boolean) =>
      count === 0
        ? ''
        : `${more ? 'At least ' : ''}${count} culture${count === 1 ? '' : 's'} came from it, over ${generations} generation${generations === 1 ? '' : 's'}.`,
    unlabelled: 'No label',
    noStage: 'No stage yet',
    counts: (vessels: number | null, plantlets: number | null) =>
      [
        vessels === null ? 'vessels not counted' : `${vessels} vessel${vessels === 1 ? '' : 's'}`,
        plantlets === null ? null : `${plantlets} plantlet${plantlets === 1 ? '' : 's'}`,
      ]
        .filter(Boolean)
        .join(' · '),
    alsoFrom: 'Also pooled from',
    listLabel: 'The family as a list',
    hidden: (n: number) =>
      `${n} more culture${n === 1 ? '' : 's'} of these generations not shown, to keep the page quick.`,
    beyond: (n: number, generations: number) =>
      `${n} more culture${n === 1 ? '' : 's'} in later generations: showing ${generations} generation${generations === 1 ? '' : 's'} here.`,
    older: 'Older generations are not shown.',
    showMore: 'Show more of the family',
    showOlder: 'Show older generations',
  },
  /** Splitting an explant into daughter cultures at a subculture. */
  split: {
    title: 'Split into daughter cultures',
    lead: (vessels: number, label: string) =>
      `${label} has ${vessels} vessel${vessels === 1 ? '' : 's'}. Choose how many new cultures the vessels go into: they are shared out evenly, and you can change each one.`,
    noCount:
      'This culture has no vessel count yet. Record a transfer with its vessels first, then split it.',
    daughters: 'How many daughter cultures?',
    daughter: (n: number) => `Daughter ${n}`,
    daughtersWord: 'Daughters',
    summary: (labels: string[], vessels: (number | undefined)[]) =>
      `${labels.length} daughters${
        vessels.every((v) => v === vessels[0]) && vessels[0] !== undefined
          ? ` of ${vessels[0]} vessel${vessels[0] === 1 ? '' : 's'} each`
          : ''
      }: ${labels[0]} to ${labels[labels.length - 1]}.`,
    each: 'Change labels and counts',
    more: 'Notes',
    label: 'Label',
    vessels: 'Vessels',
    plantlets: 'Plantlets',
    left: (vessels: number, label: string) =>
      vessels === 0
        ? `All vessels leave ${label}: none stay in it.`
        : vessels < 0
          ? `That is ${-vessels} vessel${vessels === -1 ? '' : 's'} more than ${label} has.`
          : `${vessels} vessel${vessels === 1 ? '' : 's'} stay in ${label}.`,
    notes: 'Notes',
    notesHint: 'Kept with the transfer of the parent culture.',
    save: (n: number) => (n === 0 ? 'Split' : `Split into ${n}`),
    done: (labels: string[]) => `Split into ${labels.length}: ${labels.join(', ')}.`,
  },
  /** Putting every culture descended from a record into quarantine (or another status). */
  recall: {
    title: 'Recall',
    lead: {
      explant:
        'For a positive virus test or a bad medium batch: put this explant and every culture descended from it into quarantine, or another status, at once.',
      plant:
        'For a positive virus test: put every culture started from this plant, and every culture descended from them, into quarantine, or another status, at once.',
    },
    forManagers: (noun: string) =>
      `Recalling this ${noun}'s family (every culture descended from it) is for a manager or above.`,
    status: 'Set them to',
    reason: 'Why',
    reasonHint: 'e.g. CMV positive in lot 12. Kept with each culture’s history.',
    check: 'Check what it would change',
    checking: 'Checking…',
    preview: (count: number, status: string) =>
      count === 0
        ? `Nothing would change: every culture of this family is already “${status}”, archived or ended.`
        : `${count} culture${count === 1 ? '' : 's'} would be set to “${status}”:`,
    andMore: (n: number) => `and ${n} more.`,
    confirm: (count: number) => `Recall ${count} culture${count === 1 ? '' : 's'}`,
    change: 'Change the choice',
    done: (count: number, status: string) =>
      `${count} culture${count === 1 ? '' : 's'} set to “${status}”.`,
  },
  /** The lab's own fields in a form that makes a record. */
  customInputs: {
    notSet: 'Not set',
    yes: 'Yes',
    no: 'No',
    number: 'A number.',
  },
  /** New plant, on the plants list. */
  newPlant: {
    button: 'New plant',
    title: 'New plant',
    lead: 'Only the species is needed; the rest can be added later.',
    species: 'Species',
    speciesHint: 'e.g. Monstera deliciosa',
    commonName: 'Name',
    commonNameHint:
      'What the lab calls it, e.g. Monstera ‘Thai Constellation’. Empty: the species.',
    cultivar: 'Cultivar',
    externalId: 'Code',
    externalIdHint: 'The lab’s own code for it, e.g. MON-TC. No two plants share one.',
    stage: 'First stage',
    room: 'Room',
    noRoom: 'No room',
    notes: 'Notes',
    more: 'Cultivar, code, notes and the lab’s own fields',
    save: 'Save plant',
    loading: 'Loading the lab’s stages, rooms and fields…',
  },
  /** New explant and Initiate explants, on a plant's page. */
  newExplants: {
    oneTitle: 'New explant from this plant',
    manyTitle: 'Initiate explants from this plant',
    manyLead: 'Makes one explant for each vessel group, all alike, labelled in order.',
    label: 'Label',
    labelHint: 'As written on the vessel.',
    how: 'How many explants',
    howHint: (max: number) => `1 to ${max}.`,
    code: 'Label code',
    codeHint: 'Labels are the code, a dash and a number.',
    from: 'First number',
    fromHint: (next: number) => `Empty: ${next}, the next free one.`,
    fromWrong: 'a whole number, 0 or more',
    codeMissing: 'give the code the labels start with',
    labels: (first: string, last: string, n: number) =>
      n === 1 ? `Label: ${first}` : `Labels: ${first} to ${last} (${n})`,
    labelsUnknown: 'Type how many to see their labels.',
    labelsNoCode: 'Give the code and a first number to see the labels.',
    stage: 'Stage',
    room: 'Room',
    noRoom: 'No room',
    vessels: 'Vessels',
    vesselsEach: 'Vessels per explant',
    plantlets: 'Plantlets',
    plantletsEach: 'Plantlets per explant',
    countHint: '0 or more; may stay empty.',
    batch: 'Batch',
    batchHint: 'e.g. B-2026-11. Shared by all explants of this initiation.',
    notes: 'Notes',
    more: 'Notes and the lab’s own fields',
    saveOne: 'Save explant',
    saveMany: (n: number) =>
      n === 0 ? 'Make explants' : n === 1 ? 'Make 1 explant' : `Make ${n} explants`,
    resume: (n: number) => (n === 1 ? 'Make the 1 not made' : `Make the ${n} not made`),
    tooMany: (max: number) => `At most ${max} at once.`,
    progress: (made: number, total: number) => `${made} of ${total} made`,
    made: 'Made',
    notMade: 'Not made yet',
    refused: (label: string, why: string) => `${label} was not made: ${why}`,
    retry: 'Nothing made twice: sending again makes only those not made yet.',
    done: (n: number, first: string, last: string) =>
      n === 1 ? `Explant ${first} made.` : `${n} explants made: ${first} to ${last}.`,
  },
  /** An explant transferred down to no vessel. */
  empty: {
    chip: 'no vessels left',
    title: 'No vessels left',
    lead: (status: string) =>
      `The last transfer left this culture in 0 vessels, yet it still reads as ${status}. If nothing of it goes on, mark it as lost or discarded.`,
    splitLead: (status: string) =>
      `All its vessels went to its daughter cultures (see Family), yet it still reads as ${status}. Mark it as retired: its history and family stay.`,
    mark: { lost: 'Mark as lost', discarded: 'Mark as discarded', retired: 'Mark as retired' },
    done: (status: string) => `Marked as ${status}.`,
    askManager: 'Whoever created it, or a manager, can mark it as lost, discarded or retired.',
  },
  archive: {
    title: 'Made by mistake?',
    lead: (noun: string) =>
      `Archiving takes this ${noun} out of every list. Nothing is deleted: its history stays, and it can be restored.`,
    button: 'Archive',
    confirm: (name: string) => `Archive ${name}?`,
    reason: 'Why (optional)',
    yes: 'Yes, archive',
    restore: 'Restore',
  },
  /** The plants and explants lists, and their filters. */
  lists: {
    plants: {
      title: 'Plants',
      lead: 'Mother plants and stock: find one by name, species or code, or filter by stage, room and status.',
      search: 'Search plants',
      searchHint: 'Name, species, genus or code',
      more: 'More plants',
      loading: 'Loading plants…',
      empty: 'No plants yet.',
      emptyFiltered: 'No plant matches these filters.',
      import: 'Import',
      noStage: 'No stage yet',
    },
    explants: {
      title: 'Explants',
      lead: 'Cultures in vessels: find one by label, batch or code, or filter by stage, room and status.',
      search: 'Search explants',
      searchHint: 'Label, batch or code',
      more: 'More explants',
      loading: 'Loading explants…',
      empty: 'No explants yet.',
      emptyFiltered: 'No explant matches these filters.',
      import: 'Import',
      noStage: 'No stage yet',
      vessels: (n: number) => `${n} vessel${n === 1 ? '' : 's'}`,
      transferDue: 'transfer due',
    },
    filters: {
      find: 'Search',
      more: (on: number) => (on === 0 ? 'Filters' : `Filters (${on} on)`),
      stage: 'Stage',
      stageHint: 'e.g. Multiplication',
      room: 'Room',
      anyRoom: 'Any room',
      status: 'Status',
      anyStatus: 'Any status',
      clear: 'Clear filters',
      shown: (n: number, more: boolean) => `${n} shown${more ? ', more below' : ''}`,
      select: (name: string) => `Select ${name}`,
      selectAll: 'Select all shown',
      selected: (n: number) => `${n} selected`,
      printLabels: 'Print labels',
      unselect: 'Clear selection',
    },
  },
} as const;
