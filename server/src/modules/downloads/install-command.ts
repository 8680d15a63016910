/** Quotes one word for a POSIX shell: everything literal inside single quotes. */
export function shellQuote(word: string): string {
  return /^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface InstallCommands {
  /** Downloads the file (resuming a partial one), checks its SHA-256 and, for a published release, its signed manifest. */
  download_command: string;
  /** Linux packages: download, check, then install with the package manager that fits (.deb apt, .rpm dnf, .tar.gz/.zip unpack); null for other types. */
  install_command: string | null;
}

/** The release manifest a command checks the file against (see ReleaseManifestsService.checkFor). */
export interface ManifestVerification {
  /** GET /api/releases/{version}/manifest.json: the signed bytes. */
  manifestUrl: string;
  /** GET /api/releases/{version}/manifest.sig: the raw signature. */
  signatureUrl: string;
  /** The file's entry as canonical JSON, which the signed manifest must hold as it is. */
  entry: string;
  /** The signing key's SubjectPublicKeyInfo (DER), base64: pinned in the command, as the SHA-256 is. */
  publicKeyDer: string;
}

/**
 * The manifest check as one subshell: fetch manifest.json and manifest.sig, verify the signature with the pinned key
 * (openssl 3, which has Ed25519 and -rawin: what a Linux server with curl has), then find the file's entry, SHA-256
 * included, in the verified bytes. The temporary folder goes whatever happens.
 */
function manifestCheck(verification: ManifestVerification): string {
  const steps = [
    `curl -fsS -o "$d/manifest.json" ${shellQuote(verification.manifestUrl)}`,
    `curl -fsS -o "$d/manifest.sig" ${shellQuote(verification.signatureUrl)}`,
    `echo ${shellQuote(verification.publicKeyDer)} | base64 -d > "$d/key.der"`,
    `openssl pkeyutl -verify -pubin -keyform DER -inkey "$d/key.der" -rawin -in "$d/manifest.json" -sigfile "$d/manifest.sig"`,
    `grep -qF ${shellQuote(verification.entry)} "$d/manifest.json"`,
    `echo 'Release manifest: OK'`,
  ];
  return `(d=$(mktemp -d) && trap 'rm -rf "$d"' EXIT && ${steps.join(' && ')})`;
}

/**
 * Shell commands for a signed download link: curl, then `sha256sum -c`, then (for a published release) the signed
 * manifest's check, then the install step; each step runs only if the one before succeeded.
 */
export function installCommands(
  url: string,
  fileName: string,
  sha256: string,
  verification: ManifestVerification | null = null,
): InstallCommands {
  const file = shellQuote(fileName);
  const local = shellQuote(`./${fileName}`);
  const download = `curl -fL --retry 3 -C - -o ${file} ${shellQuote(url)}`;
  const check = `echo ${shellQuote(`${sha256}  ${fileName}`)} | sha256sum -c -`;
  const lower = fileName.toLowerCase();
  const install = lower.endsWith('.deb')
    ? `sudo apt install -y ${local}`
    : lower.endsWith('.rpm')
      ? `sudo dnf install -y ${local}`
      : lower.endsWith('.tar.gz')
        ? `tar -xzf ${file}`
        : lower.endsWith('.zip')
          ? `unzip -o ${file}`
          : null;
  const downloadCommand = [download, check, ...(verification ? [manifestCheck(verification)] : [])].join(' && ');
  return { download_command: downloadCommand, install_command: install ? `${downloadCommand} && ${install}` : null };
}
