/** The words of the API client's own failures (the API's refusals come in its words). */
export const strings = {
  offline: 'The server could not be reached. Check the connection and try again.',
  queued: 'Saved on this device: waiting to send. It is sent when the connection returns.',
  answered: (status: number, text: string) => `The server answered ${status} ${text}`,
} as const;
