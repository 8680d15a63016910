import { createHmac } from 'node:crypto';

const PERIOD = 30;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function fromBase32(text: string): Buffer {
  let bits = '';
  for (const char of text.replace(/[\s=]/g, '').toUpperCase()) bits += BASE32.indexOf(char).toString(2).padStart(5, '0');
  return Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
}

/** The time step (RFC 6238, 30 s) the clock is in now. */
export const currentStep = () => Math.floor(Date.now() / 1000 / PERIOD);

/** The 6-digit code an authenticator app shows for this base32 secret in time step `step` (RFC 6238, SHA-1). */
export function totpCode(secret: string, step = currentStep()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', fromBase32(secret)).update(counter).digest();
  const offset = digest[digest.length - 1] & 0xf;
  const value = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, '0');
}

/**
 * A code the server has not taken yet: of the step after `usedStep` when the clock is still in that one (the server
 * accepts the neighbouring step), else of the current step. Returns the step too, to pass as the next `usedStep`.
 */
export function freshCode(secret: string, usedStep: number): { code: string; step: number } {
  const step = Math.max(currentStep(), usedStep + 1);
  return { code: totpCode(secret, step), step };
}
