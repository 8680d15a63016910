import { createPublicKey, KeyObject, verify } from 'node:crypto';
import { canonicalJson } from '../licenses/license-signing.service';

/** Checks the signature of an activation response's data: Ed25519 over the canonical JSON of every member but `signature`. */
export function verifySignedResponse(data: { signature?: unknown } & Record<string, unknown>, publicKey: string | KeyObject): boolean {
  const { signature, ...signed } = data;
  if (typeof signature !== 'string') return false;
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  const bytes = Buffer.from(signature, 'base64');
  if (bytes.length !== 64 || bytes.toString('base64') !== signature) return false;
  return verify(null, Buffer.from(canonicalJson(signed), 'utf8'), key, bytes);
}
