import type { Feature } from '../../kernel/access.js';
import type { CustomFieldEntity, StageEntity, StageOption } from '../lab/index.js';
import { naturalKey, type IdSource } from './import.match.js';
import type { ImportFile } from './import.schema.js';
import { storedSteps } from '../sops/index.js';
import type {
  CultureLinePriceInput,
  EquipmentInput,
  LabelInput,
  OrderLineInput,
  PriceEventInput,
  SopInput,
} from './import.write.js';

export interface WorkspaceSettings {
  name?: string;
  type?: string;
  features?: Feature[];
  device_allowance?: number | null;
  subculture_interval_days?: number;
}

export interface CustomFieldDefinitionInput {
  entity: CustomFieldEntity;
  key: string;
  type: string;
  options: string[] | null;
}

export interface RoomInput {
  id: string;
  name: string;
}

/** A validated import file with defaults filled in, ids generated and timestamps in UTC. */
export interface ImportPlan {
  workspace: WorkspaceSettings | null;
  stages: Partial<Record<StageEntity, StageOption[]>>;
  /** null = keep the stored definitions; a list (even empty) replaces them all. */
  customFields: CustomFieldDefinitionInput[] | null;
  rooms: RoomInput[];
  sops: SopInput[];
  equipment: EquipmentInput[];
  labels: LabelInput[];
  cultureLinePrices: CultureLinePriceInput[];
  priceEvents: PriceEventInput[];
  orderLines: OrderLineInput[];
}

type SopEntry = NonNullable<ImportFile['sops']>[number];
type EquipmentEntry = NonNullable<ImportFile['equipment']>[number];

const utc = (value: string) => new Date(value).toISOString();
const utcOrNull = (value: string | null | undefined) =>
  value === undefined || value === null ? null : utc(value);

function sopOf(sop: SopEntry, ids: IdSource): SopInput {
  const id = ids.idOf('sops', naturalKey.sop(sop), sop.id);
  return {
    id,
    title: sop.title,
    description: sop.description ?? null,
    category: sop.category ?? null,
    status: sop.status === undefined ? 'active' : sop.status,
    level: sop.level ?? null,
    tags: sop.tags ?? [],
    equipment: sop.equipment ?? [],
    estimated_time_minutes: sop.estimated_time_minutes ?? null,
    duration_hours: sop.duration_hours ?? null,
    versions: (sop.versions ?? []).map((version) => ({
      id: ids.idOf('sop_versions', naturalKey.sopVersion(id, version.version), version.id),
      version: version.version,
      lifecycle_status: version.lifecycle_status,
      effective_at: utcOrNull(version.effective_at),
      approved_at: utcOrNull(version.approved_at),
      title: version.title ?? null,
      description: version.description ?? null,
      steps: storedSteps(version.steps ?? []),
    })),
  };
}

function equipmentOf(item: EquipmentEntry, ids: IdSource): EquipmentInput {
  return {
    id: ids.idOf('equipment', naturalKey.equipment(item), item.id),
    name: item.name,
    category: item.category,
    status: item.status ?? 'active',
    manufacturer: item.manufacturer ?? null,
    model: item.model ?? null,
    serial_number: item.serial_number ?? null,
    location: item.location ?? null,
    purchase_date: item.purchase_date ?? null,
    vendor_url: item.vendor_url ?? null,
    notes: item.notes ?? null,
  };
}

/** The plan of a validated file; `ids` gives each record its id (see import.match.ts). */
export function planImport(file: ImportFile, ids: IdSource): ImportPlan {
  return {
    workspace: file.workspace ?? null,
    stages: { ...file.stages },
    customFields:
      file.custom_fields?.map((field) => ({
        entity: field.entity,
        key: field.key,
        type: field.type,
        options: field.options ?? null,
      })) ?? null,
    rooms: (file.rooms ?? []).map((room) => ({
      id: ids.idOf('rooms', naturalKey.room(room), room.id),
      name: room.name,
    })),
    sops: (file.sops ?? []).map((sop) => sopOf(sop, ids)),
    equipment: (file.equipment ?? []).map((item) => equipmentOf(item, ids)),
    labels: (file.labels ?? []).map((label) => ({
      barcode: label.barcode,
      record_type: label.record_type,
      record_id: label.record_id,
      display_name: label.display_name,
      contents: label.contents ?? [],
    })),
    cultureLinePrices: (file.culture_line_prices ?? []).map((price) => ({
      id: ids.idOf('culture_line_prices', naturalKey.price(price), price.id),
      plant_id: price.plant_id,
      list_price: price.list_price,
      wholesale_price: price.wholesale_price ?? null,
      pricing_tier: price.pricing_tier ?? null,
      tier_score: price.tier_score ?? null,
      price_source: price.price_source ?? 'manual',
      notes: price.notes ?? null,
    })),
    priceEvents: (file.price_events ?? []).map((event) => ({
      id: ids.idOf('price_events', naturalKey.priceEvent(event), event.id),
      plant_id: event.plant_id,
      list_price: event.list_price,
      previous_list_price: event.previous_list_price ?? null,
      price_source: event.price_source ?? 'manual',
      changed_at: utc(event.changed_at),
    })),
    orderLines: (file.order_lines ?? []).map((line) => ({
      id: ids.idOf(
        'order_lines',
        naturalKey.orderLine({
          plant_id: line.plant_id ?? null,
          product_link_id: line.product_link_id ?? null,
          store_product_id: line.store_product_id ?? null,
          store_variant_id: line.store_variant_id ?? null,
          quantity: line.quantity,
          unit_amount: line.unit_price?.amount ?? null,
          unit_currency: line.unit_price?.currency ?? null,
          occurred_at: line.occurred_at ?? null,
        }),
        line.id,
      ),
      plant_id: line.plant_id ?? null,
      product_link_id: line.product_link_id ?? null,
      store_product_id: line.store_product_id ?? null,
      store_variant_id: line.store_variant_id ?? null,
      quantity: line.quantity,
      unit_price: line.unit_price ?? null,
      occurred_at: utcOrNull(line.occurred_at),
    })),
  };
}
