import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, it } from 'vitest';
import { sniffImage } from '../../src/files/sniff.js';
import { fixture } from './fixtures.js';

describe('sniffImage', () => {
  it.each([
    ['tiny.jpg', 'image/jpeg', 'jpg'],
    ['tiny.png', 'image/png', 'png'],
    ['tiny.webp', 'image/webp', 'webp'],
    ['tiny.gif', 'image/gif', 'gif'],
  ])('reads %s as %s from its bytes', async (name, mime, ext) => {
    expect(await sniffImage(fixture(name))).toEqual({ mime, ext });
  });

  it.each(['notes.txt', 'header-only.pdf', 'leaf.svg'])('refuses %s', async (name) => {
    expect(await sniffImage(fixture(name))).toBeNull();
  });

  it('refuses empty and random bytes', async () => {
    expect(await sniffImage(Buffer.alloc(0))).toBeNull();
    expect(await sniffImage(Buffer.from('00ff00ff00ff00ff00ff', 'hex'))).toBeNull();
  });

  it.each([
    ['tiny.bmp', 'image/bmp'],
    ['tiny.tiff', 'image/tiff'],
  ])('refuses %s, an image type the API does not accept', async (name, detected) => {
    // file-type does recognise it, so it is the allow-list that refuses it.
    expect((await fileTypeFromBuffer(fixture(name)))?.mime).toBe(detected);
    expect(await sniffImage(fixture(name))).toBeNull();
  });
});
