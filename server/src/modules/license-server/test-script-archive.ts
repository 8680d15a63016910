import { Injectable } from '@nestjs/common';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tarGz } from './tar-gz';

/** server/assets/test-script, from source (src/modules/license-server) and from dist (dist/server/src/modules/license-server) alike. */
export const TEST_SCRIPT_DIR = join(__dirname, '../../../assets/test-script');
export const TEST_SCRIPT_FOLDER = 'streamhub-license-test';

/** The test-script archive, built once in memory from the files in TEST_SCRIPT_DIR. */
@Injectable()
export class TestScriptArchive {
  private archive: Buffer | null = null;

  get(): Buffer {
    if (this.archive) return this.archive;
    const names = readdirSync(TEST_SCRIPT_DIR)
      .filter((name) => statSync(join(TEST_SCRIPT_DIR, name)).isFile())
      .sort();
    const mtime = Math.max(...names.map((name) => Math.floor(statSync(join(TEST_SCRIPT_DIR, name)).mtimeMs / 1000)));
    const entries = names.map((name) => ({
      name: `${TEST_SCRIPT_FOLDER}/${name}`,
      content: readFileSync(join(TEST_SCRIPT_DIR, name)),
      mode: name.endsWith('.mjs') || name.endsWith('.sh') ? 0o755 : 0o644,
    }));
    this.archive = tarGz(entries, mtime);
    return this.archive;
  }
}
