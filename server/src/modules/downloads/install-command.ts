/** Quotes one word for a POSIX shell: everything literal inside single quotes. */
export function shellQuote(word: string): string {
  return /^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface InstallCommands {
  /** Downloads the file (resuming a partial one) and checks its SHA-256. */
  download_command: string;
  /** Linux packages: download, check, then install with the package manager that fits (.deb apt, .rpm dnf, .tar.gz/.zip unpack); null for other types. */
  install_command: string | null;
}

/** Shell commands for a signed download link: curl, then `sha256sum -c`, then the install step; each step runs only if the one before succeeded. */
export function installCommands(url: string, fileName: string, sha256: string): InstallCommands {
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
  const downloadCommand = `${download} && ${check}`;
  return { download_command: downloadCommand, install_command: install ? `${downloadCommand} && ${install}` : null };
}
