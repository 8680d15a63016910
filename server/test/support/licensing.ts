import { createPublicKey, KeyObject, randomBytes, randomUUID, verify } from 'node:crypto';
import { canonicalJson } from '../../src/modules/licenses/license-signing.service';
import { DeviceEntity } from '../../src/modules/devices/device.entity';
import { LicenseEntity } from '../../src/modules/licenses/license.entity';
import { bearer, TestApp } from './test-app';

/** Helpers for the licensing suites: licenses made through the admin API, and activation requests. */

export const PRODUCT = 'StreamHub v2.1.0';
export const ADMIN_PRODUCT = 'StreamHub Pro';

export const nonce = () => randomBytes(16).toString('base64url');
export const serverUid = () => `srv-${randomUUID()}`;
export const inDays = (days: number) => new Date(Date.now() + days * 24 * 3600 * 1000).toISOString();

/** Makes the version clients can license (product "StreamHub v{version}") through the admin API, once. */
export async function ensureVersion(t: TestApp, version = '2.1.0'): Promise<void> {
  const response = await t
    .api()
    .post('/api/admin/upload')
    .set(bearer(await t.adminToken()))
    .field('version', version)
    .field('release_date', '2025-06-01');
  if (response.status !== 201 && response.status !== 409) throw new Error(`Could not create version ${version}: ${response.status}`);
}

export interface IssuedLicense {
  id: number;
  license_key: string;
  max_activations: number;
  user_email: string;
}

/** A license issued by the admin (product "StreamHub Pro"), by default for 30 days and one device. */
export async function issueLicense(
  t: TestApp,
  fields: {
    user_email?: string;
    max_activations?: number;
    expires_at?: string;
    license_key?: string;
    channel?: string;
    updates_until?: string | null;
  } = {},
): Promise<IssuedLicense> {
  const response = await t
    .api()
    .post('/api/admin/licenses')
    .set(bearer(await t.adminToken()))
    .send({ product_name: ADMIN_PRODUCT, user_email: 'owner@portal.test', expires_at: inDays(30), max_activations: 1, ...fields })
    .expect(201);
  return response.body.data;
}

export interface ServerCall {
  license_key: string;
  server_uid: string;
  nonce?: string;
  device_name?: string;
  hostname?: string;
  product?: string;
  version?: string;
  os?: string | null;
  arch?: string | null;
}

/** POST /api/license-server/{action} with a fresh nonce unless one is given. */
export function callLicenseServer(t: TestApp, action: 'activate' | 'validate' | 'deactivate', call: ServerCall) {
  const body =
    action === 'deactivate'
      ? { license_key: call.license_key, server_uid: call.server_uid, nonce: call.nonce ?? nonce() }
      : {
          hostname: 'stream-01.example.net',
          product: 'StreamHub',
          version: '2.1.0',
          device_name: 'Edge server',
          ...call,
          nonce: call.nonce ?? nonce(),
        };
  return t.api().post(`/api/license-server/${action}`).send(body);
}

/** Sets a date column of one row directly (to make time pass for expiry and inactivity). */
export async function setDate(t: TestApp, table: 'licenses' | 'devices', id: number, column: string, date: Date): Promise<void> {
  const entity = table === 'licenses' ? LicenseEntity : DeviceEntity;
  await t.dataSource
    .createQueryBuilder()
    .update(entity)
    .set({ [column]: date })
    .where('id = :id', { id })
    .execute();
}

/** Checks the signature of an activation response's data: Ed25519 over the canonical JSON of every member but `signature`. */
export function verifySignedResponse(data: { signature?: unknown } & Record<string, unknown>, publicKey: string | KeyObject): boolean {
  const { signature, ...signed } = data;
  if (typeof signature !== 'string') return false;
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  const bytes = Buffer.from(signature, 'base64');
  if (bytes.length !== 64 || bytes.toString('base64') !== signature) return false;
  return verify(null, Buffer.from(canonicalJson(signed), 'utf8'), key, bytes);
}
