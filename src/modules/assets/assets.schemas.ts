import Type from 'typebox';
import { BODY_LIMIT_BYTES } from '../../kernel/http.js';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const ASSET_TARGETS = ['plant', 'explant', 'contamination', 'sop'] as const;
export type AssetTarget = (typeof ASSET_TARGETS)[number];

/** A photo attached to a record, with a link to its bytes valid for 15 minutes. */
export const Asset = Type.Object(
  {
    id: Uuid(),
    target: StringEnum(ASSET_TARGETS),
    target_id: Uuid(),
    kind: Type.String({ description: 'photo' }),
    file_name: Type.String(),
    content_type: Type.String({ description: 'image/jpeg, image/png, image/webp or image/gif' }),
    caption: Nullable(Type.String()),
    captured_at: Nullable(Type.String()),
    uploaded_by: Nullable(Uuid()),
    created_at: Type.String(),
    view_url: Type.String({ format: 'uri', description: 'Valid 15 minutes; never store it' }),
    view_url_expires_at: Type.String(),
  },
  { $id: 'Asset' },
);

export const CreateAssetBody = Type.Object(
  {
    target: StringEnum(ASSET_TARGETS),
    target_id: Uuid(),
    image_url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        description: 'An https address on the public internet; downloaded once, within 10 s',
      }),
    ),
    image_base64: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: BODY_LIMIT_BYTES,
        description: 'The image in base64; a data-URL prefix (data:image/png;base64,) is accepted',
      }),
    ),
    filename: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    caption: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const AssetQuery = Type.Object({
  target: StringEnum(ASSET_TARGETS),
  target_id: Uuid(),
});

export const AssetParams = Type.Object({ id: Uuid() });
