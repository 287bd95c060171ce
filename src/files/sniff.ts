import { fileTypeFromBuffer } from 'file-type';

export type ImageMime = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';

export interface ImageType {
  readonly mime: ImageMime;
  readonly ext: 'jpg' | 'png' | 'webp' | 'gif';
}

// file-type names an animated PNG "image/apng"; it is still a PNG file.
const ACCEPTED: Readonly<Record<string, ImageType>> = {
  'image/jpeg': { mime: 'image/jpeg', ext: 'jpg' },
  'image/png': { mime: 'image/png', ext: 'png' },
  'image/apng': { mime: 'image/png', ext: 'png' },
  'image/webp': { mime: 'image/webp', ext: 'webp' },
  'image/gif': { mime: 'image/gif', ext: 'gif' },
};

/**
 * The image type read from the bytes themselves (magic numbers), never from a
 * file name or the sender's Content-Type. Null for anything but JPEG, PNG, WebP, GIF.
 */
export async function sniffImage(bytes: Uint8Array): Promise<ImageType | null> {
  const detected = await fileTypeFromBuffer(bytes);
  return detected === undefined ? null : (ACCEPTED[detected.mime] ?? null);
}
