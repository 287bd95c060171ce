import type { Schemas } from '../../api/client';

type Role = Schemas['Member']['role'];

/** The words of the admin screens (members and API keys), in one place for translation. */
export const strings = {
  members: {
    title: 'Members',
    lead: 'The people of your lab, their roles, and the sign-in links you hand them.',
    adminsOnly: 'Only admins and owners manage members. Ask one of them to change your role.',
    add: 'Add a member',
    addTitle: 'New member',
    name: 'Name',
    email: 'Email',
    emailHint: 'Optional. Not used to sign in; it helps tell people apart.',
    role: 'Role',
    save: 'Add member',
    cancel: 'Cancel',
    added: (name: string) => `${name} was added. Make a sign-in link to hand over.`,
    you: 'you',
    removed: 'removed',
    active: 'active',
    since: 'Added',
    link: 'Make sign-in link',
    linkTitle: (name: string) => `Sign-in link for ${name}`,
    linkWarning: (until: string) =>
      `Works once, until ${until}. Hand it over in person or in a private message: whoever opens it ` +
      'signs in as this member. It is not shown again.',
    revoke: 'Revoke sign-in links',
    revoked: (name: string, n: number) =>
      n === 0
        ? `${name} had no unused sign-in link: nothing to revoke.`
        : `${n === 1 ? 'One unused sign-in link' : `${n} unused sign-in links`} of ${name} revoked: ` +
          `${n === 1 ? 'it' : 'they'} no longer sign${n === 1 ? 's' : ''} anyone in. Sessions already started go on.`,
    remove: 'Remove',
    confirmRemove: (name: string) =>
      `Remove ${name}? Their API keys and sessions stop working at once. They stay listed as removed.`,
    confirm: 'Yes, remove',
    roleSaved: 'Role saved',
    more: 'More members',
    loading: 'Loading members…',
    empty: 'No members yet.',
    roles: {
      owner: 'Owner — everything, including owners',
      admin: 'Admin — members, keys, devices, and all lab work',
      manager: 'Manager — lab work, others’ records, prices, devices',
      member: 'Member — records their own work',
      viewer: 'Viewer — reads everything, changes nothing',
      guest: 'Guest — reads only',
    } satisfies Record<Role, string>,
  },
  apiKeys: {
    title: 'API keys',
    lead: 'Keys let scripts, label printers and sync tools use the API as one member. People sign in with links instead.',
    adminsOnly: 'Only admins and owners manage API keys.',
    create: 'Create a key',
    createTitle: 'New API key',
    member: 'Acts as',
    memberHint: 'The key can never do more than this member’s role allows.',
    name: 'Name',
    nameHint: 'What uses it, e.g. “Label printer, room 2”.',
    environment: 'Environment',
    environments: [
      ['production', 'Production (xpk_live_…)'],
      ['development', 'Development (xpk_dev_…)'],
    ] as const,
    scopesLegend: 'What the key may do',
    allScopes: (all: number) => `Everything the member’s role allows (all ${all} scopes)`,
    someScopes: 'Only these scopes:',
    noScopes:
      'tick at least one scope, or choose everything the member’s role allows. A key with no scope could do nothing.',
    save: 'Create key',
    cancel: 'Cancel',
    secretTitle: (name: string) => `The key “${name}”`,
    secretWarning:
      'Copy it now into the tool that will use it. It is shown only this once; Vitro keeps only a fingerprint of it.',
    active: 'active',
    revoked: 'revoked',
    lastUsed: 'last used',
    neverUsed: 'not used yet',
    scopeCount: (n: number, all: number) =>
      n === all ? 'all scopes' : `${n} scope${n === 1 ? '' : 's'}`,
    revoke: 'Revoke',
    confirmRevoke: (name: string) =>
      `Revoke “${name}”? Whatever uses it stops working at its next request. This cannot be undone.`,
    confirm: 'Yes, revoke',
    more: 'More keys',
    loading: 'Loading keys…',
    empty: 'No keys yet.',
    unknownMember: 'a removed member',
  },
} as const;
