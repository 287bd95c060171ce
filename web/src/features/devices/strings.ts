import type { DeviceStatus as Status } from './status';

/** The words of the device screens, in one place for translation. */
export const strings = {
  devices: {
    title: 'Devices',
    lead: 'Sensors, controllers and gateways that send readings. Open one to pause or retire it and to manage its tokens.',
    adminsOnly: 'Only admins and owners manage devices.',
    lastSeen: 'Last seen',
    never: 'never',
    more: 'More devices',
    loading: 'Loading devices…',
    empty:
      'No devices yet. A device is registered by a script with an API key (POST /api/v1/devices).',
  },
  device: {
    title: 'Device',
    back: 'All devices',
    loading: 'Loading the device…',
    facts: {
      type: 'Type',
      hardware: 'Hardware',
      firmware: 'Firmware',
      lastSeen: 'Last seen',
      registered: 'Registered',
    },
    never: 'never',
    stale: 'not reporting',
    staleHelp: 'No heartbeat and no reading for over an hour: check its power and network.',
    room: 'Room',
    notFound: 'No such device in this lab.',
    statusTitle: 'Status',
    statusHelp: {
      active: 'Active: its tokens work and its readings are stored.',
      paused:
        'Paused: its tokens were revoked and its readings are refused. Make it active again, then give it a new token.',
      retired: 'Retired: for good. It no longer counts against your plan’s device allowance.',
    } satisfies Record<Status, string>,
    actions: {
      active: 'Make active',
      paused: 'Pause',
      retired: 'Retire',
    } satisfies Record<Status, string>,
    confirm: {
      paused: 'Pause this device? All its tokens stop working at once.',
      retired:
        'Retire this device for good? All its tokens stop working, and it cannot be made active again.',
      active: 'Make this device active again? It will need a new token.',
    } satisfies Record<Status, string>,
    yes: 'Yes',
    cancel: 'Cancel',
    tokensTitle: 'Tokens',
    tokensLead:
      'A device sends its readings with a token. Each token is shown once, when it is made.',
    mint: 'Make a token',
    mintTitle: 'New token',
    tokenName: 'Name',
    tokenNameHint: 'Optional, e.g. “firmware 2.1”.',
    environment: 'Environment',
    environments: [
      ['production', 'Production (xpd_live_…)'],
      ['development', 'Development (xpd_dev_…)'],
    ] as const,
    mintSave: 'Make token',
    tokenSecretTitle: 'The new token',
    tokenSecretWarning: 'Copy it now into the device’s settings. It is shown only this once.',
    revoke: 'Revoke',
    revoked: 'revoked',
    active: 'active',
    lastUsed: 'Last used',
    noTokens: 'No tokens yet.',
    more: 'More tokens',
  },
} as const;
