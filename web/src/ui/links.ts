/** Where each kind of record lives in the console. */
export const recordHref = {
  plant: (id: string) => `/plants/${id}`,
  explant: (id: string) => `/explants/${id}`,
  task: (id: string) => `/tasks/${id}`,
  contamination: (id: string) => `/contaminations/${id}`,
  room: (id: string) => `/rooms/${id}`,
  sop: (id: string) => `/sops/${id}`,
  device: (id: string) => `/devices/${id}`,
  media_batch: (id: string) => `/media/${id}`,
} as const;
