/** The words of the console's frame: the navigation, the shell around every screen, its fallbacks. */
export const strings = {
  name: 'Vitro',
  loading: 'Loading…',
  nav: {
    today: 'Today',
    plants: 'Plants',
    explants: 'Explants',
    tasks: 'Tasks',
    sops: 'SOPs',
    contaminations: 'Contaminations',
    media: 'Media',
    stock: 'Stock',
    rooms: 'Rooms',
    insights: 'Insights',
    labels: 'Scan',
    members: 'Members',
    apiKeys: 'API keys',
    devices: 'Devices',
  },
  skip: 'Skip to content',
  navigation: 'Console',
  phoneNavigation: 'Console (bottom bar)',
  home: 'Vitro home',
  scan: 'Scan',
  more: 'More',
  morePlaces: 'More places',
  searchLabel: 'Find a record by its label or name',
  searchPlaceholder: 'Scan or search',
  searchButton: 'Find',
  searchScanning: 'Scan the label now, or type a code or a few letters of a name and press Enter.',
  search: {
    busy: 'Searching…',
    none: (q: string) => `No match for “${q}”: no label has this code and no record these words.`,
    found: (n: number) => (n === 1 ? '1 match' : `${n} best matches`),
    results: (q: string) => `Matches for “${q}”`,
    kinds: {
      plant: 'Plant',
      explant: 'Explant',
      task: 'Task',
      sop: 'SOP',
      room: 'Room',
      contamination: 'Contamination',
    } as Readonly<Record<string, string>>,
  },
  account: 'Account',
  signedInAs: 'Signed in as',
  roleIn: (role: string, workspace: string) => `${role} in ${workspace}`,
  labSettings: 'Lab settings',
  signOut: 'Sign out',
  signOutEverywhere: 'Sign out everywhere',
  signOutEverywhereHint: 'Ends your sessions on every phone, tablet and computer.',
  /** Whether the console opens without the network on this device, and why not. */
  offlineReload: {
    preparing: 'Getting the console ready to open offline…',
    ready:
      'Works offline: this device keeps what you open for a week, and the console opens without the network. Signing out clears it.',
    insecure:
      'Opening the console offline is unavailable here: this address is not secure (http), and browsers keep a page for offline use only over https. What you open is still kept while this page stays open. Ask whoever runs Vitro to serve it over https.',
    unsupported:
      'Opening the console offline is unavailable: this browser cannot keep a page for offline use. What you open is still kept while this page stays open.',
    failed:
      'Opening the console offline is unavailable: this browser refused to keep the console for offline use. What you open is still kept while this page stays open.',
  },
  notBuilt: {
    title: 'Not in the console yet',
    lead: (path: string) =>
      `${path} is a Vitro address, and its screen is still to come. The API already serves this record.`,
    home: 'Back to home',
    docs: 'API reference',
  },
  unreachable: {
    title: 'The server cannot be reached',
    lead: 'This page could not be opened: the connection to the Vitro server is down.',
    what: 'Check the tablet’s Wi-Fi or network cable, or whether the server is running, then try again. Nothing you recorded before is lost.',
    retry: 'Try again',
  },
  /** The quiet status line while the server is out of reach. */
  offlineAsOf: (time: string) =>
    `Offline: showing what this device kept, as of ${time}. It may be out of date; nothing is sent until the server is back.`,
  offline:
    'Offline: the server cannot be reached. What is on screen may be out of date; nothing is sent until it is back.',
  notFound: {
    title: 'Page not found',
    lead: (path: string) =>
      `There is no page at ${path}. The address may be mistyped, or the link was cut short.`,
    meant: 'Did you mean',
    meantEnd: '?',
    home: 'Back to home',
  },
} as const;
