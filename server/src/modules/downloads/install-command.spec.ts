import { execFileSync } from 'node:child_process';
import { installCommands, shellQuote } from './install-command';

const SHA = 'a'.repeat(64);
const URL = 'https://portal.example.com/api/download/7/signed?expires=1700000000&user=3&signature=abc_-';

describe('installCommands', () => {
  it('installs a .deb with apt after checking the SHA-256', () => {
    expect(installCommands(URL, 'streamhub_2.1.0_amd64.deb', SHA).install_command).toBe(
      `curl -fL --retry 3 -C - -o streamhub_2.1.0_amd64.deb '${URL}' && ` +
        `echo '${SHA}  streamhub_2.1.0_amd64.deb' | sha256sum -c - && sudo apt install -y ./streamhub_2.1.0_amd64.deb`,
    );
  });

  it('uses dnf for .rpm, tar for .tar.gz, unzip for .zip and no install step for other types', () => {
    expect(installCommands(URL, 'streamhub.rpm', SHA).install_command).toMatch(/sha256sum -c - && sudo dnf install -y \.\/streamhub\.rpm$/);
    expect(installCommands(URL, 'streamhub.tar.gz', SHA).install_command).toMatch(/sha256sum -c - && tar -xzf streamhub\.tar\.gz$/);
    expect(installCommands(URL, 'streamhub.zip', SHA).install_command).toMatch(/&& unzip -o streamhub\.zip$/);
    const exe = installCommands(URL, 'setup.exe', SHA);
    expect(exe.install_command).toBeNull();
    expect(exe.download_command).toContain(`sha256sum -c -`);
  });

  it("checks the signed manifest after the SHA-256 and before installing, with the pinned key, then the file's entry", () => {
    const entry = '{"arch":"x64","name":"streamhub.deb","os":"linux","sha256":"' + SHA + '","size":10}';
    const command = installCommands(URL, 'streamhub.deb', SHA, {
      manifestUrl: 'https://portal.example.com/api/releases/2.1.0/manifest.json',
      signatureUrl: 'https://portal.example.com/api/releases/2.1.0/manifest.sig',
      entry,
      publicKeyDer: 'MCowBQYDK2VwAyEA' + 'A'.repeat(44),
    }).install_command!;
    const order = [
      'sha256sum -c -',
      'manifest.json',
      'manifest.sig',
      'base64 -d',
      'openssl pkeyutl -verify',
      'grep -qF',
      'sudo apt install',
    ];
    const at = order.map((part) => command.indexOf(part));
    expect(at.every((index) => index >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(command).toContain(`grep -qF '${entry}'`);
    expect(command).toMatch(/trap 'rm -rf "\$d"' EXIT/);
  });

  it('quotes names so the shell takes them literally', () => {
    expect(shellQuote("it's $(rm -rf ~) `x`.deb")).toBe(`'it'\\''s $(rm -rf ~) \`x\`.deb'`);
    const said = execFileSync('sh', ['-c', `printf %s ${shellQuote("it's $(echo no) `x`.deb")}`]).toString();
    expect(said).toBe("it's $(echo no) `x`.deb");
  });
});
