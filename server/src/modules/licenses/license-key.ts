import { randomBytes } from 'node:crypto';

/** Crockford's base32: no I, L, O or U, so a key read aloud or typed is hard to get wrong. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const LICENSE_KEY_PREFIX = 'SH-';
const GROUPS = 5;
const GROUP_LENGTH = 5;
/** 25 base32 characters: 125 bits from the operating system's cryptographic random source. */
export const LICENSE_KEY_ENTROPY_BITS = GROUPS * GROUP_LENGTH * 5;

/** The generated form: SH-XXXXX-XXXXX-XXXXX-XXXXX-XXXXX. */
export const GENERATED_KEY_PATTERN = new RegExp(`^SH(-[${ALPHABET}]{${GROUP_LENGTH}}){${GROUPS}}$`);

/**
 * What an admin may type: SH- then groups of letters and digits separated by single hyphens,
 * 8 to 61 characters after the prefix, so keys from the older client (SH-{time}-{random}) can be taken over.
 */
export const TYPED_KEY_PATTERN = /^SH-(?=.{8,61}$)[A-Z0-9]+(-[A-Z0-9]+)*$/;
export const TYPED_KEY_RULE = 'SH- followed by 8 to 61 letters, digits and single hyphens (e.g. SH-7K2QD-M9XJ4-TA1VC-8PZRN-B3HWE)';

export function generateLicenseKey(): string {
  // 25 bytes, one per character: 256 is a multiple of 32, so `byte % 32` is uniform.
  const bytes = randomBytes(GROUPS * GROUP_LENGTH);
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i++) group += ALPHABET[bytes[g * GROUP_LENGTH + i] % 32];
    groups.push(group);
  }
  return LICENSE_KEY_PREFIX + groups.join('-');
}

/** Keys are compared in capitals with surrounding blanks removed, so a pasted key still matches. */
export function normalizeLicenseKey(key: string): string {
  return key.trim().toUpperCase();
}

export function isValidTypedKey(key: string): boolean {
  return TYPED_KEY_PATTERN.test(key);
}
