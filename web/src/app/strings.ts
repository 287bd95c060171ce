/** The words of the frame around every screen. */
export const strings = {
  skip: 'Skip to content',
  navigation: 'Console',
  phoneNavigation: 'Console (bottom bar)',
  home: 'Vitro home',
  scan: 'Scan',
  searchLabel: 'Find a record by its label',
  searchPlaceholder: 'Scan a label',
  searchButton: 'Find',
  searchScanning: 'Scan the label now, or type its code and press Enter.',
  searchContainer: (name: string, count: number) =>
    `${name} holds ${count} item${count === 1 ? '' : 's'}:`,
  account: 'Account',
  signedInAs: 'Signed in as',
  roleIn: (role: string, workspace: string) => `${role} in ${workspace}`,
  signOut: 'Sign out',
  signOutEverywhere: 'Sign out everywhere',
  signOutEverywhereHint: 'Ends your sessions on every phone, tablet and computer.',
} as const;
