import { csvField } from '../../common/csv';
import { isoDate, jsonValue } from '../../common/streamed-export';

/** A licenses row as the driver returns it (is_trial as 0/1, dates as Date or text, BIGINT maybe as text). */
export type RawLicenseRow = Record<string, unknown>;

/** The export's columns, in the order of the CSV header; the raw batches select exactly these. */
export const LICENSE_EXPORT_COLUMNS = [
  'id',
  'license_key',
  'product_name',
  'user_email',
  'status',
  'is_trial',
  'expires_at',
  'max_activations',
  'current_activations',
  'order_id',
  'synced_at',
  'created_at',
  'updated_at',
] as const;

/** The raw batches also read user_id, which the JSON form (AdminLicenseDto) has. */
export const LICENSE_EXPORT_SELECT = [...LICENSE_EXPORT_COLUMNS, 'user_id'] as const;

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const trial = (row: RawLicenseRow) => Boolean(Number(row.is_trial));

/** A CSV line straight from the raw row (no entity, no value array): booleans as true/false, dates as ISO 8601. */
export function licenseCsvLine(row: RawLicenseRow): string {
  return (
    `${Number(row.id)},${csvField(row.license_key)},${csvField(row.product_name)},${csvField(row.user_email)},${csvField(row.status)},` +
    `${trial(row)},${isoDate(row.expires_at)},${Number(row.max_activations)},${Number(row.current_activations)},` +
    `${csvField(num(row.order_id))},${isoDate(row.synced_at) ?? ''},${isoDate(row.created_at)},${isoDate(row.updated_at)}\r\n`
  );
}

/** AdminLicenseDto as JSON text, straight from the raw row. */
export function licenseJsonText(row: RawLicenseRow): string {
  const text = (value: unknown) => jsonValue(value as string | null);
  return (
    `{"id":${Number(row.id)},"product_name":${text(row.product_name)},"license_key":${text(row.license_key)},"status":${text(row.status)},` +
    `"is_trial":${trial(row)},"expires_at":${text(isoDate(row.expires_at))},"current_activations":${Number(row.current_activations)},` +
    `"max_activations":${Number(row.max_activations)},"created_at":${text(isoDate(row.created_at))},"user_email":${text(row.user_email)},` +
    `"user_id":${jsonValue(num(row.user_id))},"order_id":${jsonValue(num(row.order_id))},"synced_at":${text(isoDate(row.synced_at))},` +
    `"updated_at":${text(isoDate(row.updated_at))}}`
  );
}
