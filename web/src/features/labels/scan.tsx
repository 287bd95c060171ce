import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call, newIdempotencyKey, type Schemas } from '../../api/client';
import { qrDecoder } from './decode';
import { useSignedIn } from '../../api/session';
import { Notice, ScreenHeader } from '../../ui/parts';
import { useTitle } from '../../ui/title';

type Resolution = Schemas['LabelResolution'];

const strings = {
  title: 'Scan',
  lead: 'Point the camera at a label, or type its code (a USB scanner types it for you): its record opens.',
  code: 'Label code',
  codeHint: 'e.g. VT-E-0001',
  open: 'Open',
  camera: 'Scan with the camera',
  stop: 'Stop the camera',
  photo: 'Read a photo of a label',
  looking: 'Looking for a QR code…',
  noCamera: 'The camera could not be started here: type the code, or read a photo of the label.',
  noQr: 'No QR code found in this photo. Try again closer, with the label flat and lit.',
  resolving: (code: string) => `Looking up ${code}…`,
  container: (name: string, n: number) => `${name} holds ${n} item${n === 1 ? '' : 's'}:`,
  video: 'Camera view',
} as const;

const recordPath = (type: 'plant' | 'explant', id: string) =>
  `/${type === 'plant' ? 'plants' : 'explants'}/${id}`;

export default function LabelScan() {
  useTitle(strings.title);
  const { route } = useLocation();
  const { can } = useSignedIn();
  const [code, setCode] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [container, setContainer] = useState<Resolution | null>(null);
  const [scanning, setScanning] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const busy = useRef(false);

  const stopCamera = () => {
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
    setScanning(false);
  };
  useEffect(() => stopCamera, []);

  /** Resolves a code, records the scan, and opens the record it names. */
  const open = async (raw: string) => {
    const barcode = raw.trim();
    if (barcode === '' || busy.current) return;
    busy.current = true;
    setFailure(null);
    setContainer(null);
    setStatus(strings.resolving(barcode));
    try {
      const answer = await call(
        api.GET('/api/v1/labels/resolve', { params: { query: { barcode } } }),
      );
      const found = answer.ok ? answer.data : null;
      if (can('write:label_scans')) {
        const named =
          found?.record_type === 'plant'
            ? { plant_id: found.record_id }
            : found?.record_type === 'explant'
              ? { explant_id: found.record_id }
              : {};
        // The scan is worth keeping even when the code named nothing; a failure to
        // record it does not keep the person from their record.
        await call(
          api.POST('/api/v1/label-scans', {
            params: { header: { 'idempotency-key': newIdempotencyKey() } },
            body: { barcode, context: 'console', ...named },
          }),
        );
      }
      setStatus(null);
      if (!answer.ok) {
        setFailure(answer.failure.error);
        return;
      }
      if (answer.data.record_type === 'container') {
        setContainer(answer.data);
        return;
      }
      route(recordPath(answer.data.record_type, answer.data.record_id));
    } finally {
      busy.current = false;
    }
  };

  const startCamera = async () => {
    setFailure(null);
    try {
      const media = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'environment' },
        audio: false,
      });
      stream.current = media;
      setScanning(true);
      const element = video.current!;
      element.srcObject = media;
      await element.play();
      const decode = await qrDecoder();
      const look = async () => {
        if (stream.current !== media) return;
        const found = await decode(element).catch(() => null);
        if (found !== null) {
          stopCamera();
          await open(found);
          return;
        }
        setTimeout(() => void look(), 150);
      };
      void look();
    } catch {
      stopCamera();
      setFailure(strings.noCamera);
    }
  };

  const readPhoto = async (file: File | undefined) => {
    if (file === undefined) return;
    setFailure(null);
    const decode = await qrDecoder();
    const bitmap = await createImageBitmap(file);
    const found = await decode(bitmap).catch(() => null);
    bitmap.close();
    if (found === null) setFailure(strings.noQr);
    else await open(found);
  };

  const hasCamera = typeof navigator.mediaDevices?.getUserMedia === 'function';
  return (
    <>
      <ScreenHeader title={strings.title} lead={strings.lead} />
      <form
        class="scan-form"
        onSubmit={(event) => {
          event.preventDefault();
          void open(code);
        }}
      >
        <div class="field">
          <label for="scan-code">{strings.code}</label>
          <div class="filter-q-input">
            <input
              id="scan-code"
              type="text"
              value={code}
              placeholder={strings.codeHint}
              autocomplete="off"
              autocapitalize="off"
              spellcheck={false}
              enterkeyhint="go"
              onInput={(event) => setCode(event.currentTarget.value)}
            />
            <button type="submit" class="button button-primary">
              {strings.open}
            </button>
          </div>
        </div>
      </form>
      <div class="actions scan-actions">
        {hasCamera &&
          (scanning ? (
            <button type="button" class="button" onClick={stopCamera}>
              {strings.stop}
            </button>
          ) : (
            <button type="button" class="button button-primary" onClick={() => void startCamera()}>
              {strings.camera}
            </button>
          ))}
        <label class="button scan-photo">
          {strings.photo}
          <input
            type="file"
            accept="image/*"
            capture="environment"
            class="visually-hidden"
            onChange={(event) => {
              void readPhoto(event.currentTarget.files?.[0]);
              event.currentTarget.value = '';
            }}
          />
        </label>
      </div>
      <video
        ref={video}
        class="scan-video"
        hidden={!scanning}
        muted
        playsInline
        aria-label={strings.video}
      />
      <div role="status">
        {scanning && <p>{strings.looking}</p>}
        {status !== null && <p>{status}</p>}
      </div>
      {failure !== null && <Notice tone="bad">{failure}</Notice>}
      {container !== null && (
        <section class="scan-container">
          <p>{strings.container(container.display_name, container.contents?.length ?? 0)}</p>
          <ul>
            {(container.contents ?? []).map((item) => (
              <li key={item.item_id}>
                {item.record_type === null || item.record_id === null ? (
                  item.display_name
                ) : (
                  <a href={recordPath(item.record_type, item.record_id)}>{item.display_name}</a>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
