import { useEffect, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../../api/client';
import { bindFields, FormError, TextField } from '../../../forms/fields';
import { given, textOf, useApiForm, useFormValues } from '../../../forms/form';
import { usePagedList } from '../../../ui/paged';
import { Notice, TimeAgo } from '../../../ui/parts';
import { photoSource, useRecordPage } from './context';
import { strings } from '../strings';
import { LoadMore } from '../../../ui/list';

type Asset = Schemas['Asset'];

/** The file input's id: the page's "Take a photo" button is its label too. */
export const PHOTO_INPUT_ID = 'field-photo';

/**
 * What the API takes in one request (its body is at most about 4.5 MB, base64 adds
 * a third): a bigger photo, as a phone's camera makes, is scaled down first.
 */
const SEND_AS_IS_BYTES = 3_000_000;
const LONGEST_SIDE = 2560;

function base64Of(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      resolve(typeof reader.result === 'string' ? reader.result.replace(/^data:[^,]*,/, '') : '');
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(blob);
  });
}

/** A photo small enough to send: the file itself, or a JPEG of it scaled down. */
async function sendable(file: File): Promise<Blob> {
  if (file.size <= SEND_AS_IS_BYTES) return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    // Not an image the browser reads: sent as it is, the API says what is wrong.
    return file;
  }
  let side = LONGEST_SIDE;
  for (;;) {
    const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, 'image/jpeg', 0.85),
    );
    if (blob === null || blob.size <= SEND_AS_IS_BYTES || side < 640) return blob ?? file;
    side = Math.round(side * 0.75);
  }
}

/** The record's photos, newest first, and (for a member) a photo taken or chosen to add. */
export function PhotosPart(props: { writable: boolean }) {
  const page = useRecordPage();
  const list = usePagedList<Asset>(
    (cursor) =>
      call(
        api.GET('/api/v1/assets', {
          params: {
            query: {
              target: page.kind,
              target_id: page.id,
              limit: 12,
              ...(cursor ? { cursor } : {}),
            },
          },
        }),
      ),
    [page.id, page.version],
  );
  return (
    <section class="panel" aria-labelledby="photos-title" aria-busy={list.loading}>
      <h2 id="photos-title">{strings.photos.title}</h2>
      {props.writable && <PhotoForm />}
      {list.failure && <Notice tone="bad">{list.failure.error}</Notice>}
      {!list.loading && !list.failure && list.items.length === 0 && (
        <p class="muted">{strings.photos.empty}</p>
      )}
      {list.items.length > 0 && (
        <ul class="photos">
          {list.items.map((photo) => (
            <li key={photo.id}>
              <figure>
                <a
                  href={photoSource(photo.view_url)}
                  target="_blank"
                  rel="noopener"
                  aria-label={strings.photos.open(photo.caption ?? photo.file_name)}
                >
                  <img
                    src={photoSource(photo.view_url)}
                    alt={photo.caption ?? photo.file_name}
                    loading="lazy"
                  />
                </a>
                <figcaption>
                  {photo.caption && <span>{photo.caption}</span>}
                  <span class="muted small">
                    <TimeAgo at={photo.captured_at ?? photo.created_at} />
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} label={strings.photos.more} />
    </section>
  );
}

function PhotoForm() {
  const page = useRecordPage();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const values = useFormValues({ caption: '' });
  const [inputKey, setInputKey] = useState(0);
  useEffect(() => {
    if (file === null) return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  const cleared = () => {
    setFile(null);
    setPreview(null);
    values.reset();
    setInputKey((k) => k + 1);
  };
  const form = useApiForm({
    fields: ['image_base64', ...values.names],
    send: async (key) => {
      const image = await base64Of(await sendable(file!));
      return call(
        api.POST('/api/v1/assets', {
          params: { header: { 'idempotency-key': key } },
          body: {
            target: page.kind,
            target_id: page.id,
            image_base64: image,
            filename: file!.name.slice(0, 200) || 'photo',
            ...given({ caption: textOf(values.now.caption) }),
          },
        }),
      );
    },
    onSuccess: () => {
      cleared();
      page.changed(strings.done.photo);
    },
    onQueued: () => {
      cleared();
      page.kept();
    },
  });
  const field = bindFields(form, values);
  return (
    <form
      class="form photo-form"
      noValidate
      aria-label={strings.photos.title}
      onSubmit={(event) => void (file !== null && form.submit(event))}
    >
      <div class={form.errorFor('image_base64') ? 'field field-invalid' : 'field'}>
        <label for={PHOTO_INPUT_ID}>{strings.photos.file}</label>
        <p class="field-hint" id="photo-hint">
          {strings.photos.fileHint}
        </p>
        <input
          key={inputKey}
          id={PHOTO_INPUT_ID}
          type="file"
          accept="image/*"
          capture="environment"
          aria-describedby="photo-hint"
          onChange={(event) => {
            form.clear();
            setFile(event.currentTarget.files?.[0] ?? null);
          }}
        />
        {form.errorFor('image_base64') && (
          <p class="field-error">{form.errorFor('image_base64')}</p>
        )}
      </div>
      {file !== null && (
        <>
          {preview && <img class="photo-preview" src={preview} alt={strings.photos.preview} />}
          <FormError message={form.formError} />
          <TextField
            {...field.text('caption')}
            label={strings.photos.caption}
            hint={strings.photos.captionHint}
            autocomplete="off"
          />
          <div class="actions">
            <button type="submit" class="button button-primary" disabled={form.busy}>
              {form.busy ? strings.photos.reading : strings.photos.save}
            </button>
          </div>
        </>
      )}
    </form>
  );
}
