/** The words of the sign-in pages, in one place for translation. */
export const strings = {
  signIn: {
    title: 'Sign in',
    working: 'Signing you in…',
    failed: 'This link did not sign you in',
    noLink: 'Open the sign-in link you were given, or paste it here.',
    notValid:
      'This sign-in link is not valid: part of it is missing or was changed (links sometimes break when copied from a chat or an email). Paste the whole link below, or ask an admin of your lab for a new one.',
    again: 'Got a new link? Paste it here, or open it.',
    switchTitle: 'Switch to another person?',
    signedInAs: (name: string, lab: string) => `${name} is signed in on this browser, in ${lab}.`,
    linkFor: (name: string, lab: string) => `This link signs in ${name}, in ${lab}.`,
    switchWhy:
      'Switch only if this link was meant for you to use on this device. A link someone sent you may be a way to make your work land in their account.',
    switchTo: (name: string) => `Switch to ${name}`,
    stay: (name: string) => `Stay signed in as ${name}`,
  },
  signedOut: {
    title: 'You are signed out',
    bye: 'You have signed out.',
    lead: 'People sign in to Vitro with a personal sign-in link: no password to remember.',
    howTitle: 'How to get a sign-in link',
    how: [
      'Ask an admin or owner of your lab: they make one for you on the Members page.',
      'Whoever runs the Vitro server can also make one there: npx vitro member link --member <member id>',
      'Open the link on this device within 15 minutes. It works once.',
    ],
    paste: 'Got the link in a chat or an email? Paste it here:',
    back: 'After signing in you will go straight back to the page you opened.',
  },
  pasteLink: {
    label: 'Sign-in link',
    hint: 'Paste the whole link you were given (it starts with http and contains /sign-in#).',
    submit: 'Sign in',
    notALink: 'This is not a sign-in link. It looks like https://…/sign-in#vsl_…',
  },
} as const;
