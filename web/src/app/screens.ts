import type { ComponentType } from 'preact';
import type { Session } from '../api/session';
import { strings as admin } from '../features/admin/strings';
import { strings as devices } from '../features/devices/strings';
import SignedOut from '../features/sign-in/signed-out';
import SignIn from '../features/sign-in/sign-in';
import type { IconName } from './icons';
import { lazyScreen } from './lazy-screen';
import { strings } from './strings';

/**
 * A screen's place in the navigation: left on a desk; on a phone in the bottom bar
 * (`bar`: the places used most at the bench) or under its More.
 */
export interface NavPlace {
  readonly label: string;
  readonly icon: IconName;
  readonly bar?: boolean;
}

/** What a screen for admins and owners shows anyone else: its header, and why not. */
export interface AdminsOnly {
  readonly title: string;
  readonly lead: string;
  readonly adminsOnly: string;
}

/** The address's parameters, as the router hands them to a screen (`/plants/:id`). */
export interface ScreenProps {
  readonly id?: string;
  readonly params?: { readonly id?: string };
}

/**
 * One screen of the console: its address, its code, its place in the navigation and
 * who may see it. `anyone`: the sign-in pages, shown before anyone is signed in;
 * `signed-in`: every member of the lab; `admins`: admins and owners (anyone else sees
 * the screen's header and why not; the API would refuse them its data anyway).
 */
export type Screen = { readonly path: string } & (
  | {
      readonly who: 'anyone';
      readonly screen: ComponentType<{ onSignedIn: (session: Session) => void }>;
    }
  | {
      readonly who: 'signed-in' | { readonly admins: AdminsOnly };
      readonly screen: ComponentType<ScreenProps>;
      readonly nav?: NavPlace;
    }
);

/*
 * Each screen is its own chunk, loaded when first opened. The sign-in pages are in the
 * first chunk: they are what a signed-out person opens first.
 */
const Today = lazyScreen(() => import('../features/today/today'));
const Plants = lazyScreen(() => import('../features/records/plants'));
const Plant = lazyScreen(() => import('../features/records/plant'));
const Explants = lazyScreen(() => import('../features/records/explants'));
const Explant = lazyScreen(() => import('../features/records/explant'));
const Import = lazyScreen(() => import('../features/imports/import'));
const Tasks = lazyScreen(() => import('../features/tasks/tasks'));
const Task = lazyScreen(() => import('../features/tasks/task'));
const Sops = lazyScreen(() => import('../features/sops/sops'));
const Sop = lazyScreen(() => import('../features/sops/sop'));
const SopRuns = lazyScreen(() => import('../features/sops/runs'));
const SopRun = lazyScreen(() => import('../features/sops/run'));
const Contaminations = lazyScreen(() => import('../features/contaminations/contaminations'));
const Contamination = lazyScreen(() => import('../features/contaminations/contamination'));
const MediaBatches = lazyScreen(() => import('../features/media/batches'));
const MediaBatch = lazyScreen(() => import('../features/media/batch'));
const NewMediaBatch = lazyScreen(() => import('../features/media/new-batch'));
const Stock = lazyScreen(() => import('../features/stock/stock'));
const Rooms = lazyScreen(() => import('../features/rooms/rooms'));
const Room = lazyScreen(() => import('../features/rooms/room'));
const Insights = lazyScreen(() => import('../features/insights/insights'));
const LabelScan = lazyScreen(() => import('../features/labels/scan'));
const LabelPrint = lazyScreen(() => import('../features/labels/print'));
const Members = lazyScreen(() => import('../features/admin/members'));
const ApiKeys = lazyScreen(() => import('../features/admin/api-keys'));
const Devices = lazyScreen(() => import('../features/devices/devices'));
const Device = lazyScreen(() => import('../features/devices/device'));
const Inbox = lazyScreen(() => import('../features/notifications/inbox'));
const Attention = lazyScreen(() => import('../features/offline/attention'));
const NotificationSettings = lazyScreen(() => import('../features/notifications/settings'));
const LabSettings = lazyScreen(() => import('../features/lab-settings/settings'));
const RoomSettings = lazyScreen(() => import('../features/lab-settings/rooms'));
const StageSettings = lazyScreen(() => import('../features/lab-settings/stages'));
const SopSettings = lazyScreen(() => import('../features/lab-settings/sops'));
const SopSettingsPage = lazyScreen(() => import('../features/lab-settings/sop'));
const EquipmentSettings = lazyScreen(() => import('../features/lab-settings/equipment'));
const CustomFieldSettings = lazyScreen(() => import('../features/lab-settings/custom-fields'));
const MediaRecipeSettings = lazyScreen(() => import('../features/lab-settings/media-recipes'));
/** Addresses whose screens are still to come: a placeholder until they land. */
const NotBuilt = lazyScreen(() => import('./not-built'));
/** What any other address shows. */
export const NotFound = lazyScreen(() => import('./not-found'));

const nav = strings.nav;

/**
 * Every screen of the console, in the navigation's order. The router (app.tsx) and the
 * navigation (shell.tsx) are made from it, and so are the addresses the server answers
 * with the console (`src/console/pages.ts`, written from this table by
 * `scripts/console-pages.ts`). A new screen is one entry here.
 */
export const SCREENS: readonly Screen[] = [
  { path: '/sign-in', screen: SignIn, who: 'anyone' },
  { path: '/signed-out', screen: SignedOut, who: 'anyone' },
  {
    path: '/',
    screen: Today,
    who: 'signed-in',
    nav: { label: nav.today, icon: 'home', bar: true },
  },
  { path: '/today', screen: Today, who: 'signed-in' },
  { path: '/plants', screen: Plants, who: 'signed-in', nav: { label: nav.plants, icon: 'plant' } },
  // Before the record's address, which would take `import` for an id.
  { path: '/plants/import', screen: Import, who: 'signed-in' },
  { path: '/plants/:id', screen: Plant, who: 'signed-in' },
  {
    path: '/explants',
    screen: Explants,
    who: 'signed-in',
    nav: { label: nav.explants, icon: 'flask', bar: true },
  },
  { path: '/explants/import', screen: Import, who: 'signed-in' },
  { path: '/explants/:id', screen: Explant, who: 'signed-in' },
  {
    path: '/tasks',
    screen: Tasks,
    who: 'signed-in',
    nav: { label: nav.tasks, icon: 'tasks', bar: true },
  },
  { path: '/tasks/:id', screen: Task, who: 'signed-in' },
  {
    path: '/sops',
    screen: Sops,
    who: 'signed-in',
    nav: { label: nav.sops, icon: 'steps', bar: true },
  },
  { path: '/sops/:id', screen: Sop, who: 'signed-in' },
  { path: '/sop-runs', screen: SopRuns, who: 'signed-in' },
  { path: '/sop-runs/:id', screen: SopRun, who: 'signed-in' },
  {
    path: '/contaminations',
    screen: Contaminations,
    who: 'signed-in',
    nav: { label: nav.contaminations, icon: 'warning' },
  },
  { path: '/contaminations/:id', screen: Contamination, who: 'signed-in' },
  {
    path: '/media',
    screen: MediaBatches,
    who: 'signed-in',
    nav: { label: nav.media, icon: 'media' },
  },
  // Before the batch's address, which would take `new` for an id.
  { path: '/media/new', screen: NewMediaBatch, who: 'signed-in' },
  { path: '/media/:id', screen: MediaBatch, who: 'signed-in' },
  { path: '/stock', screen: Stock, who: 'signed-in', nav: { label: nav.stock, icon: 'box' } },
  { path: '/rooms', screen: Rooms, who: 'signed-in', nav: { label: nav.rooms, icon: 'room' } },
  { path: '/rooms/:id', screen: Room, who: 'signed-in' },
  // Every member: managers and up see the lab's figures, anyone else their own.
  {
    path: '/insights',
    screen: Insights,
    who: 'signed-in',
    nav: { label: nav.insights, icon: 'chart' },
  },
  {
    path: '/labels',
    screen: LabelScan,
    who: 'signed-in',
    nav: { label: nav.labels, icon: 'scan' },
  },
  { path: '/labels/scan', screen: LabelScan, who: 'signed-in' },
  { path: '/labels/print', screen: LabelPrint, who: 'signed-in' },
  {
    path: '/members',
    screen: Members,
    who: { admins: admin.members },
    nav: { label: nav.members, icon: 'people' },
  },
  {
    path: '/api-keys',
    screen: ApiKeys,
    who: { admins: admin.apiKeys },
    nav: { label: nav.apiKeys, icon: 'key' },
  },
  {
    path: '/devices',
    screen: Devices,
    who: { admins: devices.devices },
    nav: { label: nav.devices, icon: 'device' },
  },
  // Every member sees a device's readings; an admin also manages it there (device.tsx).
  { path: '/devices/:id', screen: Device, who: 'signed-in' },
  // Each person's own: reached by the bell in the top bar.
  { path: '/notifications', screen: Inbox, who: 'signed-in' },
  { path: '/notifications/settings', screen: NotificationSettings, who: 'signed-in' },
  // The write queue's refusals: reached by the status in the top bar.
  { path: '/attention', screen: Attention, who: 'signed-in' },
  { path: '/sensors', screen: NotBuilt, who: 'signed-in' },
  // Lab settings: opened from the account menu; every member reads them, managers and up change them.
  { path: '/settings', screen: LabSettings, who: 'signed-in' },
  { path: '/settings/rooms', screen: RoomSettings, who: 'signed-in' },
  { path: '/settings/stages', screen: StageSettings, who: 'signed-in' },
  { path: '/settings/sops', screen: SopSettings, who: 'signed-in' },
  { path: '/settings/sops/:id', screen: SopSettingsPage, who: 'signed-in' },
  { path: '/settings/equipment', screen: EquipmentSettings, who: 'signed-in' },
  { path: '/settings/custom-fields', screen: CustomFieldSettings, who: 'signed-in' },
  { path: '/settings/media-recipes', screen: MediaRecipeSettings, who: 'signed-in' },
];

export interface NavEntry extends NavPlace {
  readonly href: string;
  /** Shown to admins and owners only. */
  readonly admin: boolean;
}

/** The navigation: the screens that have a place in it, in the table's order. */
export const NAVIGATION: readonly NavEntry[] = SCREENS.flatMap((entry) =>
  entry.who !== 'anyone' && entry.nav
    ? [{ href: entry.path, ...entry.nav, admin: entry.who !== 'signed-in' }]
    : [],
);
