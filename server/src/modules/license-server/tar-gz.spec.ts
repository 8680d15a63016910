import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tarGz } from './tar-gz';

describe('tarGz', () => {
  it('writes an archive the system tar unpacks, with contents and modes intact', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tar-gz-'));
    const script = Buffer.from('#!/usr/bin/env node\nconsole.log("hi");\n');
    const big = Buffer.alloc(1500, 'x');
    writeFileSync(
      join(dir, 'a.tar.gz'),
      tarGz([
        { name: 'pkg/run.mjs', content: script, mode: 0o755 },
        { name: 'pkg/README.md', content: big, mode: 0o644 },
      ]),
    );
    execFileSync('tar', ['-xzf', 'a.tar.gz'], { cwd: dir });
    expect(readFileSync(join(dir, 'pkg/run.mjs'))).toEqual(script);
    expect(readFileSync(join(dir, 'pkg/README.md'))).toEqual(big);
    expect(statSync(join(dir, 'pkg/run.mjs')).mode & 0o777).toBe(0o755);
  });

  it('is deterministic', () => {
    const entries = [{ name: 'x', content: Buffer.from('y'), mode: 0o644 }];
    expect(tarGz(entries).equals(tarGz(entries))).toBe(true);
  });
});
