import { createPublicKey, KeyObject, verify } from 'node:crypto';
import { canonicalJson } from './canonical-json';

/** What a license.key file asserts, signed by the portal. */
export interface LicenseFilePayload {
  /** Format version of this payload. */
  v: 1;
  /** Id of the signing key (see GET /api/license-server/public-key). */
  kid: string;
  license_key: string;
  product: string;
  /** The licensee's e-mail address. */
  user: string;
  /** ISO 8601, UTC. */
  expires_at: string;
  max_activations: number;
  is_trial: boolean;
  /** ISO 8601, UTC: when this file was made. */
  issued_at: string;
}

const BEGIN = '-----BEGIN STREAMHUB LICENSE-----';
const END = '-----END STREAMHUB LICENSE-----';
const BEGIN_SIGNATURE = '-----BEGIN STREAMHUB LICENSE SIGNATURE-----';
const END_SIGNATURE = '-----END STREAMHUB LICENSE SIGNATURE-----';

const wrap = (base64: string) => base64.match(/.{1,64}/g)!.join('\n');

/**
 * The armored file: the canonical JSON payload in base64, then the Ed25519 signature over exactly those
 * payload bytes, in base64. `sign` gets the bytes and returns the 64-byte signature.
 */
export function encodeLicenseFile(payload: LicenseFilePayload, sign: (data: Buffer) => Buffer): string {
  const bytes = Buffer.from(canonicalJson(payload), 'utf8');
  const signature = sign(bytes);
  return [BEGIN, wrap(bytes.toString('base64')), END, BEGIN_SIGNATURE, wrap(signature.toString('base64')), END_SIGNATURE, ''].join('\n');
}

export type LicenseFileCheck = { valid: true; payload: LicenseFilePayload; expired: boolean } | { valid: false; reason: string };

/** Decodes base64 strictly: the text must be exactly what encoding the decoded bytes gives back. */
function strictBase64(lines: string[]): Buffer | null {
  const text = lines.join('');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

/**
 * Checks a license.key offline with the portal's public key (PEM or KeyObject): the layout, the signature
 * over the payload bytes, and that the payload is canonical JSON. `expired` compares expires_at with `now`.
 */
export function verifyLicenseFile(text: string, publicKey: string | KeyObject, now = new Date()): LicenseFileCheck {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  const end = lines.indexOf(END);
  if (lines[0] !== BEGIN || end < 2 || lines[end + 1] !== BEGIN_SIGNATURE || lines.at(-1) !== END_SIGNATURE || lines.length < end + 4) {
    return { valid: false, reason: 'not a StreamHub license file' };
  }
  const payloadBytes = strictBase64(lines.slice(1, end));
  const signature = strictBase64(lines.slice(end + 2, -1));
  if (!payloadBytes || !signature || signature.length !== 64) return { valid: false, reason: 'damaged license file' };

  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  if (!verify(null, payloadBytes, key, signature)) return { valid: false, reason: 'signature does not match' };

  let payload: LicenseFilePayload;
  try {
    payload = JSON.parse(payloadBytes.toString('utf8')) as LicenseFilePayload;
  } catch {
    return { valid: false, reason: 'payload is not JSON' };
  }
  if (canonicalJson(payload) !== payloadBytes.toString('utf8')) return { valid: false, reason: 'payload is not canonical' };
  return { valid: true, payload, expired: Date.parse(payload.expires_at) <= now.getTime() };
}
