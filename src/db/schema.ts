/**
 * Row types of every table. Timestamps are ISO 8601 UTC text with milliseconds
 * (so they sort as text on both engines), JSON is text, booleans are 0/1.
 */

export interface WorkspaceTable {
  id: string;
  name: string;
  type: string;
  plan: string;
  features: string | null;
  device_allowance: number | null;
  event_seq: number;
  last_event_at: string | null;
  created_at: string;
  updated_at: string;
  /** Days between subcultures: an explant is due for transfer this long after its last one. */
  subculture_interval_days: number;
  /** 1: completing an SOP run with steps that have no evidence is refused (409). */
  sop_runs_require_all_steps: number;
  /** The lab's IANA time zone (default UTC): local times of spreadsheet-friendly exports. */
  time_zone: string;
}

export interface MemberTable {
  id: string;
  workspace_id: string;
  name: string;
  email: string | null;
  role: string;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface ApiKeyTable {
  id: string;
  workspace_id: string;
  member_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: string;
  environment: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface DeviceTable {
  id: string;
  workspace_id: string;
  name: string;
  type: string;
  hardware: string | null;
  status: string;
  firmware_version: string | null;
  room_id: string | null;
  last_seen_at: string | null;
  metadata: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeviceTokenTable {
  id: string;
  workspace_id: string;
  device_id: string;
  name: string | null;
  prefix: string;
  token_hash: string;
  environment: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface IdempotencyKeyTable {
  id: string;
  credential_id: string;
  operation: string;
  idempotency_key: string;
  fingerprint: string;
  state: string;
  lease_token: string;
  lease_expires_at: string;
  response_status: number | null;
  response_body: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface RoomTable {
  id: string;
  workspace_id: string;
  name: string;
  created_at: string;
  /** When it was archived (left out of the rooms list); null when not. */
  archived_at: string | null;
}

export interface StageDefinitionTable {
  workspace_id: string;
  entity_type: string;
  key: string;
  name: string;
  position: number;
  /** 1: dropped from the list while records were in it; kept for their history, never entered. */
  retired: number;
}

export interface CustomFieldDefinitionTable {
  workspace_id: string;
  entity_type: string;
  key: string;
  type: string;
  options: string | null;
  position: number;
}

/**
 * What the search finds of one record (GET /search), written with the record. The
 * texts are lower case without accents; `parent_text` is the parent's names (an
 * explant's plant), so a search for a plant's name finds its explants too.
 */
export interface SearchDocumentTable {
  kind: string;
  record_id: string;
  workspace_id: string;
  title: string;
  subtitle: string | null;
  /** The record's names (a plant's common name and species, an explant's label, …). */
  name_text: string;
  /** Its other searched fields. */
  text: string;
  parent_id: string | null;
  parent_text: string | null;
  archived: number;
}

export interface PlantTable {
  id: string;
  workspace_id: string;
  species: string;
  common_name: string | null;
  genus: string | null;
  family: string | null;
  cultivar: string | null;
  source: string | null;
  notes: string | null;
  status: string;
  external_id: string | null;
  external_id_key: string | null;
  custom_fields: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** The current stage (kept by every stage move) and its room; null before the first. */
  current_stage_id: string | null;
  current_stage: string | null;
  current_stage_name: string | null;
  current_stage_entered_on: string | null;
  current_room_id: string | null;
  archived_at: string | null;
  archived_by: string | null;
  /** The names a search matches, lower-cased. */
  search_text: string | null;
}

export interface ExplantTable {
  id: string;
  workspace_id: string;
  plant_id: string | null;
  label: string;
  label_key: string;
  batch_number: string | null;
  batch_number_key: string | null;
  notes: string | null;
  status: string;
  external_id: string | null;
  external_id_key: string | null;
  initial_count: number | null;
  current_count: number | null;
  plantlet_count: number | null;
  custom_fields: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** The current stage (kept by every stage move) and its room; null before the first. */
  current_stage_id: string | null;
  current_stage: string | null;
  current_stage_name: string | null;
  current_stage_entered_on: string | null;
  current_room_id: string | null;
  archived_at: string | null;
  archived_by: string | null;
  /** The names a search matches, lower-cased. */
  search_text: string | null;
  /** When it last went onto fresh medium: its latest completed transfer, else its creation. */
  subcultured_at: string | null;
  /** Its parents' ids, a JSON array (explant_parents holds the edges themselves). */
  parent_explant_ids: string;
  /** The medium batch it went onto last: at its creation or split, or a transfer naming one. */
  media_batch_id: string | null;
}

/** One parent of a child explant: how a split or a merge made it. */
export interface ExplantParentTable {
  workspace_id: string;
  parent_id: string;
  child_id: string;
  /** split or merge */
  kind: string;
  /** The parent's transfer that made the child. */
  transfer_id: string | null;
  occurred_at: string;
  recorded_by: string | null;
  room_id: string | null;
  media_batch_id: string | null;
  created_at: string;
}

export interface StageTable {
  id: string;
  workspace_id: string;
  entity_type: string;
  entity_id: string;
  stage: string;
  status: string;
  entered_on: string;
  completed_at: string | null;
  room_id: string | null;
  notes: string | null;
  created_by: string | null;
  created_at: string;
}

export interface EventTable {
  id: string;
  workspace_id: string;
  seq: number;
  entity_type: string;
  entity_id: string;
  stage_id: string | null;
  event_type: string;
  event_time: string;
  recorded_by: string | null;
  payload: string;
  created_at: string;
}

export interface SopTable {
  id: string;
  workspace_id: string;
  title: string;
  description: string | null;
  category: string | null;
  status: string | null;
  level: string | null;
  tags: string;
  equipment: string;
  estimated_time_minutes: number | null;
  duration_hours: number | null;
  created_at: string;
  updated_at: string;
}

export interface SopVersionTable {
  id: string;
  workspace_id: string;
  sop_id: string;
  version: number;
  lifecycle_status: string;
  effective_at: string | null;
  approved_at: string | null;
  title: string | null;
  description: string | null;
  steps: string;
  created_at: string;
}

export interface EquipmentTable {
  id: string;
  workspace_id: string;
  name: string;
  category: string;
  status: string;
  manufacturer: string | null;
  model: string | null;
  serial_number: string | null;
  location: string | null;
  purchase_date: string | null;
  vendor_url: string | null;
  notes: string | null;
  last_calibrated_at: string | null;
  next_calibration_due_at: string | null;
  last_maintenance_at: string | null;
  next_maintenance_due_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface LabelTable {
  id: string;
  workspace_id: string;
  barcode: string;
  record_type: string;
  record_id: string;
  display_name: string;
  created_at: string;
}

export interface LabelContentTable {
  id: string;
  workspace_id: string;
  label_id: string;
  record_type: string | null;
  record_id: string | null;
  position: number;
}

export interface CultureLinePriceTable {
  id: string;
  workspace_id: string;
  plant_id: string;
  list_amount: string;
  list_currency: string | null;
  wholesale_amount: string | null;
  wholesale_currency: string | null;
  previous_amount: string | null;
  previous_currency: string | null;
  pricing_tier: string | null;
  tier_score: string | null;
  price_source: string;
  price_source_at: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

export interface PriceEventTable {
  id: string;
  workspace_id: string;
  plant_id: string;
  list_amount: string;
  list_currency: string | null;
  previous_amount: string | null;
  previous_currency: string | null;
  price_source: string;
  changed_by: string | null;
  changed_at: string;
}

export interface OrderLineTable {
  id: string;
  workspace_id: string;
  plant_id: string | null;
  product_link_id: string | null;
  store_product_id: string | null;
  store_variant_id: string | null;
  quantity: number;
  unit_amount: string | null;
  unit_currency: string | null;
  occurred_at: string | null;
  created_at: string;
  /** The list's sort key: occurred_at, or '' for a line without one. */
  occurred_key: string;
}

export interface TransferTable {
  id: string;
  workspace_id: string;
  entity_type: string;
  entity_id: string;
  transfer_date: string;
  transfer_cycle: number;
  from_location: string | null;
  to_location: string | null;
  status: string;
  notes: string | null;
  vessel_count: number | null;
  plantlet_count: number | null;
  custom_fields: string;
  created_by: string | null;
  created_at: string;
  /** The medium batch the transfer put the culture on, when it names one. */
  media_batch_id: string | null;
}

export interface ContaminationTable {
  id: string;
  workspace_id: string;
  entity_type: string;
  entity_id: string;
  type: string;
  type_other: string | null;
  issue: string;
  description: string | null;
  notes: string | null;
  severity: string;
  status: string;
  suspected_source: string | null;
  observed_at: string;
  resolved_at: string | null;
  vessels_affected: number | null;
  plants_affected: number | null;
  affected_vessel_markings: string | null;
  stage: string | null;
  room_id: string | null;
  custom_fields: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  resolution_outcome: string | null;
  resolution_notes: string | null;
  resolved_by: string | null;
}

export interface MediaRecipeTable {
  id: string;
  workspace_id: string;
  title: string;
  status: string;
  origin: string;
  visibility: string;
  is_public: number;
  notes: string | null;
  ph_target_centi: number | null;
  sterilization_notes: string | null;
  storage_notes: string | null;
  usage_notes: string | null;
  components: string;
  version: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface MediaRecipeVersionTable {
  id: string;
  workspace_id: string;
  recipe_id: string;
  version: number;
  title: string;
  notes: string | null;
  ph_target_centi: number | null;
  sterilization_notes: string | null;
  storage_notes: string | null;
  usage_notes: string | null;
  components: string;
  created_by: string;
  created_at: string;
}

export interface LabelScanTable {
  id: string;
  workspace_id: string;
  barcode: string;
  plant_id: string | null;
  explant_id: string | null;
  context: string | null;
  scanned_at: string;
  created_by: string | null;
  created_at: string;
}

export interface TaskTable {
  id: string;
  workspace_id: string;
  title: string;
  notes: string | null;
  category: string;
  category_label: string | null;
  workflow_status: string;
  priority: string | null;
  priority_rank: number | null;
  priority_source: string;
  due_date: string | null;
  undated: number;
  due_key: string;
  is_all_day: number;
  assigned_to: string | null;
  genus: string | null;
  entity_type: string | null;
  entity_id: string | null;
  completed_at: string | null;
  completed_by: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface DemandSignalTable {
  id: string;
  workspace_id: string;
  genus: string;
  genus_key: string;
  source_type: string | null;
  demand_score: number;
  source: string;
  observed_at: string;
  recorded_by: string | null;
  created_at: string;
}

export interface SopRunTable {
  id: string;
  workspace_id: string;
  sop_id: string;
  sop_version_id: string;
  version: number;
  step_ids: string;
  status: string;
  batch_code: string | null;
  plant_id: string | null;
  explant_id: string | null;
  notes: string | null;
  started_by: string | null;
  started_at: string;
  completed_at: string | null;
  event_seq: number;
  created_at: string;
  updated_at: string;
}

export interface SopStepEventTable {
  id: string;
  workspace_id: string;
  run_id: string;
  seq: number;
  step_key: string;
  event_type: string;
  recorded_at: string;
  payload: string;
  recorded_by: string | null;
  created_at: string;
}

export interface EquipmentEventTable {
  id: string;
  workspace_id: string;
  equipment_id: string;
  kind: string;
  occurred_at: string;
  outcome: string | null;
  subject_type: string | null;
  subject_id: string | null;
  subject_label: string | null;
  performed_by_name: string | null;
  provider: string | null;
  as_found_condition: string | null;
  as_left_condition: string | null;
  result_summary: string | null;
  certificate_number: string | null;
  certificate_url: string | null;
  next_due_at: string | null;
  notes: string | null;
  recorded_by: string | null;
  recorded_at: string;
}

export interface AssetTable {
  id: string;
  workspace_id: string;
  target: string;
  target_id: string;
  kind: string;
  file_name: string;
  content_type: string;
  byte_size: number;
  storage_key: string;
  caption: string | null;
  captured_at: string | null;
  uploaded_by: string | null;
  created_at: string;
}

export interface CommentTable {
  id: string;
  workspace_id: string;
  entity_type: string;
  entity_id: string;
  parent_id: string | null;
  body: string;
  status: string;
  is_pinned: number;
  author_id: string;
  /** JSON array of member ids. */
  mentioned_user_ids: string;
  /** JSON array of `{entity_type, entity_id, label}`. */
  entity_references: string;
  created_at: string;
  updated_at: string;
  edited_at: string | null;
  deleted_at: string | null;
}

export interface DeviceEventTable {
  id: string;
  workspace_id: string;
  device_id: string;
  event_type: string;
  payload: string;
  occurred_at: string;
  external_id: string | null;
  created_at: string;
}

export interface SensorReadingTable {
  device_id: string;
  recorded_at: string;
  id: string;
  workspace_id: string;
  room_id: string | null;
  type: string;
  value: number;
  unit: string;
  notes: string | null;
  external_id: string | null;
  created_at: string;
}

export interface WebhookEndpointTable {
  id: string;
  workspace_id: string;
  url: string;
  description: string;
  event_types: string | null;
  status: string;
  disabled_reason: string | null;
  disabled_at: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  feed_seq: number;
  lease_owner: string | null;
  lease_until: string | null;
  failing_since: string | null;
  last_success_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveryTable {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  event_seq: number;
  event_type: string;
  status: string;
  attempts: number;
  schedule_step: number;
  next_attempt_at: string | null;
  lease_owner: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_response: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptTable {
  id: string;
  workspace_id: string;
  delivery_id: string;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  response: string | null;
  error: string | null;
  next_attempt_at: string | null;
}

export interface AlertRuleTable {
  id: string;
  workspace_id: string;
  name: string;
  sensor_type: string;
  room_id: string | null;
  device_id: string | null;
  condition: string;
  threshold: number | null;
  duration_minutes: number;
  hysteresis: number;
  enabled: number;
  breach_started_at: string | null;
  open_alert_id: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface AlertTable {
  id: string;
  workspace_id: string;
  rule_id: string;
  status: string;
  sensor_type: string;
  room_id: string | null;
  device_id: string | null;
  condition: string;
  threshold: number | null;
  started_at: string;
  opened_at: string;
  opened_value: number | null;
  resolved_at: string | null;
  resolved_value: number | null;
  resolution: string | null;
  created_at: string;
  updated_at: string;
}

/** A personal sign-in link: single use, 15 minutes; only the secret's SHA-256 is kept. */
export interface SignInLinkTable {
  id: string;
  workspace_id: string;
  member_id: string;
  token_hash: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** When it was revoked unused (a newer link, a sign-out everywhere, an admin). */
  revoked_at: string | null;
}

/** A console session: the cookie's SHA-256; ends on sign-out or after 30 days unused. */
export interface SessionTable {
  id: string;
  workspace_id: string;
  member_id: string;
  token_hash: string;
  created_at: string;
  last_used_at: string;
  ended_at: string | null;
}

/**
 * Per device, room, type and unit, the readings of one minute (span 1), five minutes (span 5) or hour
 * (span 60): kept with the readings (modules/readings/rollups.ts). `value_sum` is
 * exact decimal text (a `numeric` on PostgreSQL); times are epoch minutes and ms.
 */
export interface SensorRollupTable {
  workspace_id: string;
  device_id: string;
  span_minutes: number;
  minute: number;
  type: string;
  unit: string;
  room_key: string;
  reading_count: number;
  min_value: number;
  max_value: number;
  value_sum: string;
  last_at: number;
  last_id: string;
  last_value: number;
}

/** A workspace's readings retention: its own setting and where its raw readings now start. */
export interface SensorRetentionTable {
  workspace_id: string;
  /** Days raw readings are kept; null = READINGS_RETENTION_DAYS; 0 = for ever. */
  retention_days: number | null;
  /** Raw readings taken before this time were removed (rollups stay); null = none yet. */
  raw_since: string | null;
  updated_at: string;
}

/** Who runs a periodic job now, across processes: held until `expires_at`. */
export interface MaintenanceLeaseTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** One thing a person is told of (modules/notifications): made with the event, one per event and person. */
export interface NotificationTable {
  id: string;
  workspace_id: string;
  member_id: string;
  kind: string;
  event_key: string;
  record_type: string;
  record_id: string;
  record_label: string;
  room_id: string | null;
  comment_id: string | null;
  actor_id: string | null;
  created_at: string;
  read_at: string | null;
}

/** A person's notification settings; no row: the defaults. JSON arrays as text. */
export interface NotificationSettingsTable {
  member_id: string;
  workspace_id: string;
  muted_kinds: string;
  follow_all_rooms: number;
  room_ids: string;
  email: number;
  time_zone: string;
  updated_at: string;
}

/** An email to send (immediate or a day's digest), with its state, like a webhook delivery. */
export interface NotificationEmailTable {
  id: string;
  workspace_id: string;
  member_id: string;
  kind: string;
  dedupe_key: string;
  period_start: string | null;
  period_end: string | null;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  lease_owner: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/** Where a time-based notification pass stopped. */
export interface NotificationPassTable {
  name: string;
  until: string;
}

export interface StockItemTable {
  id: string;
  workspace_id: string;
  name: string;
  category: string;
  unit: string;
  /** In the item's unit; a lot holding less raises a task. */
  reorder_level: number | null;
  notes: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface StockLotTable {
  id: string;
  workspace_id: string;
  item_id: string;
  lot_number: string;
  supplier: string | null;
  received_on: string | null;
  expires_on: string | null;
  /** What the lot still holds, in its unit. */
  quantity: number;
  initial_quantity: number;
  unit: string;
  /** The task raised when the lot fell below its item's reorder level, else null. */
  low_task_id: string | null;
  /** The task raised when the lot passed its expiry date, else null. */
  expired_task_id: string | null;
  notes: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface MediaBatchTable {
  id: string;
  workspace_id: string;
  recipe_id: string;
  recipe_version: number;
  volume_ml: number;
  ph_measured_centi: number | null;
  prepared_by: string;
  prepared_at: string;
  autoclave_event_id: string | null;
  expires_at: string | null;
  status: string;
  /** A JSON array of {name, lot_id, amount, unit}. */
  components: string;
  notes: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** An explant whose records changed since its kept handlings were made (the insights' drain). */
export interface InsightDirtyTable {
  workspace_id: string;
  explant_id: string;
  /** The transfer added to the explant's history that marked it; null: any other change. */
  transfer_id: string | null;
}

/**
 * The handlings of explants as the insights define them (src/modules/insights/), one
 * row each, made anew from an explant's records by the insights' drain.
 */
export interface InsightHandlingTable {
  workspace_id: string;
  /** The transfer's id, or the explant's for its making. */
  key: string;
  explant_id: string;
  plant_id: string | null;
  kind: string;
  handled_at: string;
  operator_id: string | null;
  location: string | null;
  media_batch_id: string | null;
  room_id: string | null;
  stage: string | null;
  before_count: number | null;
  after_count: number | null;
  plantlet_count: number | null;
  cycle_days: number | null;
  next_at: string | null;
  /** The first contamination after it, before the next handling; null when none. */
  contamination_id: string | null;
  contamination_at: string | null;
  /** Whole days (rounded up) from it to that contamination; null when none. */
  contaminated_days: number | null;
}

/**
 * The kept handlings' figures added up per UTC day, grouping (`dimension`) and group
 * (`group_key`, '' for none) and days to their contamination (0: none).
 */
export interface InsightDailyTable {
  workspace_id: string;
  dimension: string;
  group_key: string;
  day: string;
  contaminated_days: number;
  exposures: number;
  /** Handlings a multiplication rate rests on, the sums of their ln rates and cycles. */
  rated: number;
  ln_rate_sum: number;
  cycle_days_sum: number;
  /** Of them, those with a 4-week rate, the sums of its ln and of its ln squared. */
  rated_4w: number;
  ln_rate_4w_sum: number;
  ln_rate_4w_squares: number;
  /** Of them, transfers that counted plantlets, and the sum of plantlets per vessel. */
  yielded: number;
  plantlets_per_vessel_sum: number;
}

export interface DB {
  assets: AssetTable;
  workspaces: WorkspaceTable;
  members: MemberTable;
  api_keys: ApiKeyTable;
  devices: DeviceTable;
  device_tokens: DeviceTokenTable;
  idempotency_keys: IdempotencyKeyTable;
  rooms: RoomTable;
  stage_definitions: StageDefinitionTable;
  custom_field_definitions: CustomFieldDefinitionTable;
  search_documents: SearchDocumentTable;
  plants: PlantTable;
  explants: ExplantTable;
  explant_parents: ExplantParentTable;
  insight_dirty: InsightDirtyTable;
  insight_handlings: InsightHandlingTable;
  insight_daily: InsightDailyTable;
  stages: StageTable;
  events: EventTable;
  sops: SopTable;
  sop_versions: SopVersionTable;
  equipment: EquipmentTable;
  labels: LabelTable;
  label_contents: LabelContentTable;
  culture_line_prices: CultureLinePriceTable;
  price_events: PriceEventTable;
  order_lines: OrderLineTable;
  transfers: TransferTable;
  contaminations: ContaminationTable;
  media_recipes: MediaRecipeTable;
  media_recipe_versions: MediaRecipeVersionTable;
  label_scans: LabelScanTable;
  tasks: TaskTable;
  demand_signals: DemandSignalTable;
  sop_runs: SopRunTable;
  sop_step_events: SopStepEventTable;
  equipment_events: EquipmentEventTable;
  comments: CommentTable;
  device_events: DeviceEventTable;
  sensor_readings: SensorReadingTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  alert_rules: AlertRuleTable;
  alerts: AlertTable;
  sign_in_links: SignInLinkTable;
  sessions: SessionTable;
  sensor_rollups: SensorRollupTable;
  sensor_retention: SensorRetentionTable;
  maintenance_leases: MaintenanceLeaseTable;
  notifications: NotificationTable;
  notification_settings: NotificationSettingsTable;
  notification_emails: NotificationEmailTable;
  notification_passes: NotificationPassTable;
  stock_items: StockItemTable;
  stock_lots: StockLotTable;
  media_batches: MediaBatchTable;
}
