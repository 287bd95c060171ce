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
    rooms: 'Rooms',
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
  searchLabel: 'Find a record by its label',
  searchPlaceholder: 'Scan a label',
  searchButton: 'Find',
  searchScanning: 'Scan the label now, or type its code and press Enter.',
  account: 'Account',
  signedInAs: 'Signed in as',
  roleIn: (role: string, workspace: string) => `${role} in ${workspace}`,
  signOut: 'Sign out',
  signOutEverywhere: 'Sign out everywhere',
  signOutEverywhereHint: 'Ends your sessions on every phone, tablet and computer.',
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
