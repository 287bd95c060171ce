import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Schemas } from '../../../api/client';
import type { BenchFormName } from './bench';

export type Kind = 'plant' | 'explant';
export type Person = Schemas['Person'];
export type Room = Schemas['Room'];
export interface StageOption {
  readonly key: string;
  readonly name: string;
}

/** What every part of a record page knows: the record, the lab's words for it, who may write. */
export interface RecordContext {
  readonly kind: Kind;
  readonly id: string;
  /** The record as list queries name it: `{plant_id}` or `{explant_id}`. */
  readonly ref: { plant_id: string } | { explant_id: string };
  /** The record's name as a person reads it (a plant's name, an explant's label). */
  readonly name: string;
  /** The lab's stage list for this kind of record. */
  readonly stages: readonly StageOption[];
  readonly stageName: (key: string) => string;
  readonly rooms: readonly Room[];
  readonly roomName: (id: string | null) => string | null;
  readonly people: readonly Person[];
  /** The room of the record's current stage (a move keeps it unless told otherwise). */
  readonly currentRoom: string | null;
  readonly currentStage: string | null;
  /** Bumped after every change, so each part reads its list again. */
  readonly version: number;
  /** Tells the page a change succeeded: it says so and everything reads again. */
  readonly changed: (message: string) => void;
  /** A bench form saved: as `changed`, and the form closes, the focus back on its button. */
  readonly saved: (message: string) => void;
  /**
   * A write was kept on this device to send later: the page says so and the form
   * closes; nothing is read again (the record shows it as waiting to send).
   */
  readonly kept: () => void;
  /** Opens a bench form (asking first when another holds what was typed). */
  readonly open: (form: BenchFormName) => void;
  /** Whether the signed-in person's session holds a scope. */
  readonly can: (scope: string) => boolean;
  /**
   * Whether the person may move, edit and archive the record: its creator, or a
   * manager and above (the API refuses anyone else).
   */
  readonly mayChange: boolean;
}

export const RecordPageContext = createContext<RecordContext | null>(null);

export function useRecordPage(): RecordContext {
  const value = useContext(RecordPageContext);
  if (value === null) throw new Error('useRecordPage outside a record page');
  return value;
}

/**
 * The server's own file links (`/files/…?expires=…&sig=…`) opened at the console's
 * address: without PUBLIC_URL the server may name itself otherwise (`0.0.0.0:3000`)
 * than the address a phone reached it at. Links of another store (S3) stay as given.
 */
export function photoSource(viewUrl: string): string {
  try {
    const url = new URL(viewUrl, location.href);
    const local =
      url.pathname.startsWith('/files/') &&
      url.searchParams.has('sig') &&
      url.searchParams.has('expires');
    return local ? url.pathname + url.search : viewUrl;
  } catch {
    return viewUrl;
  }
}
