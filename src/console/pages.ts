/**
 * The console's addresses: every page a person may open, bookmark or send, each
 * answered with the console to a browser. Record pages take the record's id. The
 * console's own router (web/src/app/screens.tsx) shows a screen, or a placeholder for
 * screens still to come, at each of them.
 */
export const CONSOLE_PAGES = [
  '/sign-in',
  '/signed-out',
  '/today',
  '/plants',
  '/plants/:id',
  '/explants',
  '/explants/:id',
  '/tasks',
  '/tasks/:id',
  '/contaminations',
  '/contaminations/:id',
  '/sop-runs',
  '/sop-runs/:id',
  '/rooms',
  '/rooms/:id',
  '/devices',
  '/devices/:id',
  '/members',
  '/api-keys',
  '/sops',
  '/sops/:id',
  '/sensors',
  '/labels',
  '/labels/scan',
  '/labels/print',
  '/settings',
] as const;
