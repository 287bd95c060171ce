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
}

export interface StageDefinitionTable {
  workspace_id: string;
  entity_type: string;
  key: string;
  name: string;
  position: number;
}

export interface CustomFieldDefinitionTable {
  workspace_id: string;
  entity_type: string;
  key: string;
  type: string;
  options: string | null;
  position: number;
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

export interface DB {
  workspaces: WorkspaceTable;
  members: MemberTable;
  api_keys: ApiKeyTable;
  devices: DeviceTable;
  device_tokens: DeviceTokenTable;
  idempotency_keys: IdempotencyKeyTable;
  rooms: RoomTable;
  stage_definitions: StageDefinitionTable;
  custom_field_definitions: CustomFieldDefinitionTable;
  plants: PlantTable;
  explants: ExplantTable;
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
  device_events: DeviceEventTable;
  sensor_readings: SensorReadingTable;
}
