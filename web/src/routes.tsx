import { lazy } from 'preact-iso';

/*
 * Every screen of the console: its address, its code (each screen is its own
 * chunk, loaded when first opened) and its place in the navigation. The server
 * answers browsers at the same addresses (src/console/pages.ts). The sign-in and
 * signed-out pages are in the first chunk: they are what a signed-out person
 * opens first, outside the router (app.tsx).
 *
 * Screens still to come (record pages of plants and explants, Tasks, SOP runs, Rooms,
 * Contaminations, Sensors, Labels) have their record addresses reserved below,
 * served by a placeholder until they land: add the screen here, and its entry in
 * NAVIGATION to show it.
 */
export const Today = lazy(() => import('./screens/today'));
export const Plants = lazy(() => import('./screens/plants'));
export const Explants = lazy(() => import('./screens/explants'));
export const Members = lazy(() => import('./screens/members'));
export const ApiKeys = lazy(() => import('./screens/api-keys'));
export const Devices = lazy(() => import('./screens/devices'));
export const Device = lazy(() => import('./screens/device'));
export const Sops = lazy(() => import('./screens/sops'));
export const Sop = lazy(() => import('./screens/sop'));
export const SopRuns = lazy(() => import('./screens/sop-runs'));
export const SopRun = lazy(() => import('./screens/sop-run'));
export const NotBuilt = lazy(() => import('./screens/not-built'));
export const NotFound = lazy(() => import('./screens/not-found'));

/** Record and list addresses whose screens are still to come. */
export const RESERVED = [
  '/plants/:id',
  '/explants/:id',
  '/tasks',
  '/tasks/:id',
  '/contaminations',
  '/contaminations/:id',
  '/rooms',
  '/rooms/:id',
  '/sensors',
  '/labels',
  '/settings',
] as const;

export type IconName = 'home' | 'plant' | 'flask' | 'people' | 'key' | 'device' | 'steps';

export interface NavEntry {
  readonly href: string;
  readonly label: string;
  readonly icon: IconName;
  /** Shown to admins and owners only. */
  readonly admin: boolean;
}

/** The navigation: only screens that exist. Left on desktop; the bottom bar on phones. */
export const NAVIGATION: readonly NavEntry[] = [
  { href: '/', label: 'Today', icon: 'home', admin: false },
  { href: '/plants', label: 'Plants', icon: 'plant', admin: false },
  { href: '/explants', label: 'Explants', icon: 'flask', admin: false },
  { href: '/sops', label: 'SOPs', icon: 'steps', admin: false },
  { href: '/members', label: 'Members', icon: 'people', admin: true },
  { href: '/api-keys', label: 'API keys', icon: 'key', admin: true },
  { href: '/devices', label: 'Devices', icon: 'device', admin: true },
];
