import { deflateSync, crc32 } from 'node:zlib';
import type { Trx } from '../../db/database.js';
import type { BlobStore } from '../../files/blob-store.js';
import { newId } from '../../kernel/ids.js';
import type { Principal } from '../../kernel/principal.js';
import { insertAsset } from '../assets/index.js';

/**
 * Where the demo lab's photos go: the server's blob store, and the keys written so
 * far, so that a demo whose transaction fails can remove them (`discardDemoPhotos`).
 */
export interface DemoPhotos {
  readonly store: BlobStore;
  readonly keys: string[];
}

export function demoPhotos(store: BlobStore): DemoPhotos {
  return { store, keys: [] };
}

/** Removes the photos of a demo lab that was not created after all. */
export async function discardDemoPhotos(photos: DemoPhotos): Promise<void> {
  await Promise.allSettled(photos.keys.map((key) => photos.store.delete(key)));
  photos.keys.length = 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A small real PNG (RGB, 96×64): a soft vertical gradient of `top` into `bottom`
 * with a darker disc in the middle, standing in for a photo of a culture.
 */
export function demoPng(top: readonly number[], bottom: readonly number[]): Buffer {
  const width = 96;
  const height = 64;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    const t = y / (height - 1);
    for (let x = 0; x < width; x++) {
      const inDisc = (x - width / 2) ** 2 + (y - height / 2) ** 2 < 18 ** 2;
      for (let c = 0; c < 3; c++) {
        const value = top[c]! * (1 - t) + bottom[c]! * t;
        row[1 + x * 3 + c] = Math.round(inDisc ? value * 0.6 : value);
      }
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface DemoPhoto {
  readonly target: 'plant' | 'explant' | 'contamination';
  readonly targetId: string;
  readonly fileName: string;
  readonly caption: string;
  readonly top: readonly number[];
  readonly bottom: readonly number[];
  readonly takenAt: string;
}

/**
 * Stores each photo's bytes, then its asset row in the demo's transaction (the
 * keys are remembered first, so a failure later can remove them).
 */
export async function addDemoPhotos(
  trx: Trx,
  photos: DemoPhotos,
  by: Principal,
  list: readonly DemoPhoto[],
): Promise<void> {
  for (const photo of list) {
    const id = newId();
    const key = `${by.workspaceId}/${id}.png`;
    const bytes = demoPng(photo.top, photo.bottom);
    photos.keys.push(key);
    await photos.store.put(key, bytes, 'image/png');
    await insertAsset(
      trx,
      by,
      { target: photo.target, target_id: photo.targetId, caption: photo.caption },
      {
        id,
        key,
        type: { mime: 'image/png', ext: 'png' },
        size: bytes.length,
        fileName: photo.fileName,
      },
      photo.takenAt,
    );
  }
}
