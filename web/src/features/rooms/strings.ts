/** The words of the room screens, in one place for translation. */
export const strings = {
  rooms: {
    title: 'Rooms',
    lead: 'Each growth room with its latest sensor values, its devices and any open alert. Open a room for its charts.',
    loading: 'Loading rooms…',
    empty: 'No rooms yet. Rooms are set up by an import.',
    more: 'More rooms',
    counts: (plants: number | null, explants: number | null) =>
      [
        plants === null ? null : `${plants} plant${plants === 1 ? '' : 's'}`,
        explants === null ? null : `${explants} explant${explants === 1 ? '' : 's'}`,
      ]
        .filter(Boolean)
        .join(' · '),
  },
  room: {
    title: 'Room',
    back: 'All rooms',
    loading: 'Loading the room…',
    facts: { plants: 'Plants', explants: 'Explants', devices: 'Devices' },
    alert: (n: number) => `${n} open alert${n === 1 ? '' : 's'}`,
    stale: (n: number) => `${n} device${n === 1 ? '' : 's'} not reporting`,
    allWell: 'no open alert',
    now: 'Now',
  },
  parts: {
    noReadings: 'No sensor readings yet.',
    devices: 'Devices',
    noDevices: 'No device in this room.',
    reporting: 'reporting',
    stale: 'not reporting',
    paused: 'paused',
    retired: 'retired',
    lastReport: 'Last report',
    never: 'never',
    alerts: 'Open alerts',
    alertOpened: 'opened',
    noReadingsOf: (what: string) => `${what}: no readings`,
    crossed: (what: string, above: boolean, threshold: number | null, unit: string) =>
      `${what} ${above ? 'above' : 'below'} ${threshold ?? '?'}${unit ? ` ${unit}` : ''}`,
    latest: 'Latest values',
  },
} as const;
