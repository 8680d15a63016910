// Checks shared by the download check and the update script: a release manifest's signature, then a file against it.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { canonicalJson } from './canonical-json.mjs';

/** A manifest or a file that must not be trusted (exit code 3). */
export class Untrusted extends Error {}

/**
 * The manifest of a signed one (`{manifest, signature, kid}`) once its Ed25519 signature verifies with the key its
 * kid names among `keys` (the portal's /api/license-server/public-keys): nothing in an unverified manifest is trusted.
 */
export function verifiedManifest(signed, keys, version) {
  const { manifest, signature, kid } = signed ?? {};
  if (!manifest || typeof signature !== 'string') throw new Untrusted('the portal sent no signed manifest');
  const key = (keys ?? []).find((candidate) => candidate.kid === kid);
  if (!key) throw new Untrusted(`the manifest is signed with key ${kid}, which the portal does not list`);
  const bytes = Buffer.from(signature, 'base64');
  const authentic =
    bytes.length === 64 &&
    bytes.toString('base64') === signature &&
    verify(null, Buffer.from(canonicalJson(manifest), 'utf8'), createPublicKey(key.public_key_pem), bytes);
  if (!authentic) throw new Untrusted(`the manifest's signature does not verify with key ${kid}`);
  if (manifest.kid !== kid) throw new Untrusted(`the manifest names key ${manifest.kid}, but key ${kid} signed it`);
  if (manifest.version !== version) throw new Untrusted(`the manifest is for ${manifest.version}, not ${version}`);
  return manifest;
}

/** The verified manifest's entry for a file name. */
export function entryOf(manifest, name) {
  const entry = manifest.files.find((file) => file.name === name);
  if (!entry) throw new Untrusted(`the manifest of ${manifest.version} lists no file named ${name}`);
  return entry;
}

/** Size and SHA-256 (hex) of bytes as they stream by. */
export function digester() {
  const hash = createHash('sha256');
  let size = 0;
  return {
    update(chunk) {
      size += chunk.length;
      hash.update(chunk);
    },
    result: () => ({ size, sha256: hash.digest('hex') }),
  };
}

/** Size and SHA-256 of a file on disk. */
export function digestOf(file) {
  return new Promise((resolve, reject) => {
    const digest = digester();
    createReadStream(file)
      .on('data', (chunk) => digest.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(digest.result()));
  });
}

/** Throws Untrusted unless the digest is the entry's. */
export function assertMatches(entry, { size, sha256 }, what) {
  if (size !== entry.size || sha256 !== entry.sha256)
    throw new Untrusted(
      `${what} does not match the manifest: ${size} bytes, SHA-256 ${sha256}; expected ${entry.size} bytes, ${entry.sha256}`,
    );
}
