import { lazy } from 'preact-iso';

/*
 * Every screen of the console: its address, its code (each screen is its own
 * chunk, loaded when first opened) and its place in the navigation. The server
 * answers browsers at the same addresses (src/console/pages.ts). The sign-in and
 * signed-out pages are in the first chunk: they are what a signed-out person
 * opens first, outside the router (app.tsx).
 *
 * Addresses whose screens are still to come (a sensors overview, settings) are reserved below,
 * served by a placeholder until they land: add the screen here, and its entry in
 * NAVIGATION to show it.
 */
export const Today = lazy(() => import('../features/today/today'));
export const Plants = lazy(() => import('../features/records/plants'));
export const Explants = lazy(() => import('../features/records/explants'));
export const Members = lazy(() => import('../features/admin/members'));
export const ApiKeys = lazy(() => import('../features/admin/api-keys'));
export const Devices = lazy(() => import('../features/devices/devices'));
export const Device = lazy(() => import('../features/devices/device'));
export const Rooms = lazy(() => import('../features/rooms/rooms'));
export const Room = lazy(() => import('../features/rooms/room'));
export const Tasks = lazy(() => import('../features/tasks/tasks'));
export const Task = lazy(() => import('../features/tasks/task'));
export const Contaminations = lazy(() => import('../features/contaminations/contaminations'));
export const Contamination = lazy(() => import('../features/contaminations/contamination'));
export const Plant = lazy(() => import('../features/records/plant'));
export const Explant = lazy(() => import('../features/records/explant'));
export const LabelScan = lazy(() => import('../features/labels/scan'));
export const LabelPrint = lazy(() => import('../features/labels/print'));
export const Sops = lazy(() => import('../features/sops/sops'));
export const Sop = lazy(() => import('../features/sops/sop'));
export const SopRuns = lazy(() => import('../features/sops/runs'));
export const SopRun = lazy(() => import('../features/sops/run'));
export const NotBuilt = lazy(() => import('./not-built'));
export const NotFound = lazy(() => import('./not-found'));

/** Record and list addresses whose screens are still to come. */
export const RESERVED = ['/sensors', '/settings'] as const;

export type IconName =
  | 'home'
  | 'plant'
  | 'flask'
  | 'people'
  | 'key'
  | 'device'
  | 'room'
  | 'tasks'
  | 'warning'
  | 'scan'
  | 'steps';

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
  { href: '/tasks', label: 'Tasks', icon: 'tasks', admin: false },
  { href: '/sops', label: 'SOPs', icon: 'steps', admin: false },
  { href: '/contaminations', label: 'Contaminations', icon: 'warning', admin: false },
  { href: '/rooms', label: 'Rooms', icon: 'room', admin: false },
  { href: '/labels', label: 'Scan', icon: 'scan', admin: false },
  { href: '/members', label: 'Members', icon: 'people', admin: true },
  { href: '/api-keys', label: 'API keys', icon: 'key', admin: true },
  { href: '/devices', label: 'Devices', icon: 'device', admin: true },
];
