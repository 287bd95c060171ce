/**
 * The one catalogue of error codes and their HTTP statuses. Nothing else in the
 * code base invents a code string: services throw AppError with a key of this map.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 422,
  INVALID_CURSOR: 422,
  IMAGE_URL_FETCH_FAILED: 422,
  UNAUTHORIZED: 401,
  PAID_PLAN_REQUIRED: 402,
  FEATURE_NOT_INCLUDED: 402,
  PLAN_LIMIT_REACHED: 402,
  DEVICE_LIMIT_REACHED: 402,
  FORBIDDEN: 403,
  DEVICE_TOKEN_NOT_ACCEPTED: 403,
  DEVICE_TOKEN_WRONG_DEVICE: 403,
  SESSION_REQUIRED: 403,
  PLANT_WRITE_FORBIDDEN: 403,
  EXPLANT_WRITE_FORBIDDEN: 403,
  STAGE_WRITE_FORBIDDEN: 403,
  MEDIA_RECIPE_NOT_OWNER: 403,
  TRAINING_REQUIRED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  DUPLICATE_ENTRY: 409,
  IDEMPOTENCY_IN_FLIGHT: 409,
  SOP_RUN_CLOSED: 409,
  SOP_RUN_NOT_EFFECTIVE: 409,
  SOP_RUN_STEPS_INCOMPLETE: 409,
  DEVICE_INGEST_DISABLED: 409,
  WEBHOOK_ENDPOINT_DISABLED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  IMPORT_FAILED: 500,
  API_KEY_CREATE_FAILED: 500,
  API_KEY_QUERY_FAILED: 500,
  API_KEY_REVOKE_FAILED: 500,
  ASSET_QUERY_FAILED: 500,
  ASSET_UPLOAD_FAILED: 500,
  ASSET_INSERT_FAILED: 500,
  COMMENT_CREATE_FAILED: 500,
  COMMENT_QUERY_FAILED: 500,
  CONTAMINATION_CREATE_FAILED: 500,
  CONTAMINATION_QUERY_FAILED: 500,
  CONTAMINATION_UPDATE_FAILED: 500,
  CULTURE_LINE_PRICE_QUERY_FAILED: 500,
  CUSTOM_FIELD_QUERY_FAILED: 500,
  CUSTOM_FIELD_UPDATE_FAILED: 500,
  DEMAND_CREATE_FAILED: 500,
  DEMAND_QUERY_FAILED: 500,
  DEVICE_CREATE_FAILED: 500,
  DEVICE_EVENT_CREATE_FAILED: 500,
  DEVICE_QUERY_FAILED: 500,
  DEVICE_TOKEN_CREATE_FAILED: 500,
  DEVICE_TOKEN_QUERY_FAILED: 500,
  DEVICE_TOKEN_REVOKE_FAILED: 500,
  DEVICE_UPDATE_FAILED: 500,
  EQUIPMENT_CREATE_FAILED: 500,
  EQUIPMENT_UPDATE_FAILED: 500,
  EQUIPMENT_EVENT_CREATE_FAILED: 500,
  EQUIPMENT_EVENT_QUERY_FAILED: 500,
  EVENT_QUERY_FAILED: 500,
  EXPLANT_CREATE_FAILED: 500,
  EXPLANT_QUERY_FAILED: 500,
  EXPLANT_UPDATE_FAILED: 500,
  FEATURE_CHECK_FAILED: 500,
  LABEL_SCAN_CREATE_FAILED: 500,
  INSIGHT_QUERY_FAILED: 500,
  LAB_EQUIPMENT_QUERY_FAILED: 500,
  LINK_QUERY_FAILED: 500,
  MEMBER_CREATE_FAILED: 500,
  MEMBER_QUERY_FAILED: 500,
  MEMBER_UPDATE_FAILED: 500,
  MEDIA_BATCH_QUERY_FAILED: 500,
  MEDIA_BATCH_WRITE_FAILED: 500,
  MEDIA_RECIPE_CREATE_FAILED: 500,
  MEDIA_RECIPE_QUERY_FAILED: 500,
  MEDIA_RECIPE_UPDATE_FAILED: 500,
  PLANT_CREATE_FAILED: 500,
  PLANT_QUERY_FAILED: 500,
  PLANT_UPDATE_FAILED: 500,
  PEOPLE_QUERY_FAILED: 500,
  READINGS_CREATE_FAILED: 500,
  READINGS_QUERY_FAILED: 500,
  ROOM_CREATE_FAILED: 500,
  ROOM_QUERY_FAILED: 500,
  ROOM_UPDATE_FAILED: 500,
  SEARCH_QUERY_FAILED: 500,
  SELL_THROUGH_EVENT_QUERY_FAILED: 500,
  SESSION_CREATE_FAILED: 500,
  SESSION_END_FAILED: 500,
  SESSION_QUERY_FAILED: 500,
  SIGN_IN_LINK_CREATE_FAILED: 500,
  SIGN_IN_LINK_REVOKE_FAILED: 500,
  SOP_CREATE_FAILED: 500,
  SOP_QUERY_FAILED: 500,
  SOP_UPDATE_FAILED: 500,
  SOP_RUN_CREATE_FAILED: 500,
  SOP_RUN_QUERY_FAILED: 500,
  SOP_STEP_EVENT_CREATE_FAILED: 500,
  STOCK_QUERY_FAILED: 500,
  STOCK_WRITE_FAILED: 500,
  STAGE_ADVANCE_FAILED: 500,
  STAGE_QUERY_FAILED: 500,
  STAGE_LIST_UPDATE_FAILED: 500,
  TASK_CREATE_FAILED: 500,
  TASK_QUERY_FAILED: 500,
  TASK_UPDATE_FAILED: 500,
  TRANSFER_CREATE_FAILED: 500,
  TRANSFER_QUERY_FAILED: 500,
  WORKSPACE_QUERY_FAILED: 500,
  WORKSPACE_UPDATE_FAILED: 500,
  WEBHOOK_QUERY_FAILED: 500,
  WEBHOOK_UPDATE_FAILED: 500,
  ALERT_QUERY_FAILED: 500,
  ALERT_RULE_UPDATE_FAILED: 500,
  NOTIFICATION_QUERY_FAILED: 500,
  NOTIFICATION_UPDATE_FAILED: 500,
  SERVICE_UNAVAILABLE: 503,
  DATABASE_BUSY: 503,
  DEVICE_LIMIT_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** A failure with a stable code. Knows nothing of HTTP beyond the catalogue's status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers: Readonly<Record<string, string>>;
  /** What the refusal says beyond its text (an import's per-row results), as `details`. */
  readonly details: unknown;

  constructor(
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
    /** Only where one code has two statuses: VALIDATION_ERROR is 400 for unparsable JSON. */
    status: number = ERROR_STATUS[code],
    /** What failed underneath (a 5xx): logged, never sent. */
    cause?: unknown,
    details?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.headers = headers;
    this.details = details;
  }
}

export const errors = {
  validation: (message: string) => new AppError('VALIDATION_ERROR', message),
  invalidJson: () => new AppError('VALIDATION_ERROR', 'Request body is not valid JSON', {}, 400),
  invalidCursor: () =>
    new AppError(
      'INVALID_CURSOR',
      'cursor is malformed or belongs to a different list, filter set or workspace; start again without it',
    ),
  unauthorized: (message = 'Missing, malformed or revoked API key') =>
    new AppError('UNAUTHORIZED', message),
  notFound: (what = 'Record') => new AppError('NOT_FOUND', `${what} not found`),
  conflict: (code: 'DUPLICATE_ENTRY' | 'CONFLICT', message: string) => new AppError(code, message),
  payloadTooLarge: (message = 'Request body is larger than 4.5 MB') =>
    new AppError('PAYLOAD_TOO_LARGE', message),
  rateLimited: (budget: string, retryAfterSeconds: number) =>
    new AppError('RATE_LIMIT_EXCEEDED', `Rate limit exceeded: the ${budget} is exhausted`, {
      'retry-after': String(retryAfterSeconds),
    }),
  databaseBusy: () =>
    new AppError('DATABASE_BUSY', 'The database is busy with another writer; retry shortly', {
      'retry-after': '1',
    }),
  idempotencyInFlight: () =>
    new AppError(
      'IDEMPOTENCY_IN_FLIGHT',
      'A request with this Idempotency-Key is still in progress; retry shortly',
      { 'retry-after': '1' },
    ),
};
