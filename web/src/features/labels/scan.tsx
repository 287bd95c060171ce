import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call, newIdempotencyKey, type Schemas } from '../../api/client';
import { qrDecoder } from './decode';
import { useSignedIn } from '../../api/session';
import { Notice, ScreenHeader } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { recordHref } from '../../ui/links';
import { ContainerContents } from './contents';
import { strings } from './strings';

type Resolution = Schemas['LabelResolution'];

export default function LabelScan() {
  useTitle(strings.scan.title);
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
    setStatus(strings.scan.resolving(barcode));
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
      route(recordHref[answer.data.record_type](answer.data.record_id));
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
      setFailure(strings.scan.noCamera);
    }
  };

  const readPhoto = async (file: File | undefined) => {
    if (file === undefined) return;
    setFailure(null);
    const decode = await qrDecoder();
    const bitmap = await createImageBitmap(file);
    const found = await decode(bitmap).catch(() => null);
    bitmap.close();
    if (found === null) setFailure(strings.scan.noQr);
    else await open(found);
  };

  const hasCamera = typeof navigator.mediaDevices?.getUserMedia === 'function';
  return (
    <>
      <ScreenHeader title={strings.scan.title} lead={strings.scan.lead} />
      <form
        class="scan-form"
        onSubmit={(event) => {
          event.preventDefault();
          void open(code);
        }}
      >
        <div class="field">
          <label for="scan-code">{strings.scan.code}</label>
          <div class="filter-q-input">
            <input
              id="scan-code"
              type="text"
              value={code}
              placeholder={strings.scan.codeHint}
              autocomplete="off"
              autocapitalize="off"
              spellcheck={false}
              enterkeyhint="go"
              onInput={(event) => setCode(event.currentTarget.value)}
            />
            <button type="submit" class="button button-primary">
              {strings.scan.open}
            </button>
          </div>
        </div>
      </form>
      <div class="actions scan-actions">
        {hasCamera &&
          (scanning ? (
            <button type="button" class="button" onClick={stopCamera}>
              {strings.scan.stop}
            </button>
          ) : (
            <button type="button" class="button button-primary" onClick={() => void startCamera()}>
              {strings.scan.camera}
            </button>
          ))}
        <label class="button scan-photo">
          {strings.scan.photo}
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
        aria-label={strings.scan.video}
      />
      <div role="status">
        {scanning && <p>{strings.scan.looking}</p>}
        {status !== null && <p>{status}</p>}
      </div>
      {failure !== null && <Notice tone="bad">{failure}</Notice>}
      {container !== null && (
        <section class="scan-container">
          <ContainerContents container={container} />
        </section>
      )}
    </>
  );
}
