/**
 * Reading a QR code from a camera frame or a photo: the browser's own
 * BarcodeDetector where it has one (Chrome on Android and macOS, Safari 17+),
 * else jsQR, a small pure-JavaScript decoder loaded only when first needed.
 */

interface DetectedBarcode {
  readonly rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource | ImageBitmap): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

export type Decoder = (source: HTMLVideoElement | ImageBitmap) => Promise<string | null>;

async function nativeDecoder(): Promise<Decoder | null> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Detector === undefined) return null;
  try {
    if (!(await Detector.getSupportedFormats()).includes('qr_code')) return null;
  } catch {
    return null;
  }
  const detector = new Detector({ formats: ['qr_code'] });
  return async (source) => (await detector.detect(source))[0]?.rawValue ?? null;
}

/** Frames are scaled down to this many pixels across: enough for a label, quick to scan. */
const MAX_SIDE = 800;

async function jsqrDecoder(): Promise<Decoder> {
  const { default: jsQR } = await import('jsqr');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  return (source) => {
    const width = source instanceof HTMLVideoElement ? source.videoWidth : source.width;
    const height = source instanceof HTMLVideoElement ? source.videoHeight : source.height;
    if (width === 0 || height === 0) return Promise.resolve(null);
    const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    context.drawImage(source, 0, 0, canvas.width, canvas.height);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    return Promise.resolve(jsQR(image.data, image.width, image.height)?.data ?? null);
  };
}

let decoder: Promise<Decoder> | null = null;

/** The decoder this browser has, made once. */
export function qrDecoder(): Promise<Decoder> {
  decoder ??= nativeDecoder().then((native) => native ?? jsqrDecoder());
  return decoder;
}
