// A throwaway MariaDB database and user for one benchmark run, made as root over the socket (like the API tests).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './processes.mjs';

const require = createRequire(join(ROOT, 'server/package.json'));
const SOCKET = process.env.TEST_MYSQL_SOCKET ?? '/run/mysqld/mysqld.sock';

/** `{ url, drop }` for a new database only its own user may use; null when `mariadb-admin ping` fails. */
export async function throwawayMariadb() {
  try {
    execFileSync('mariadb-admin', ['ping'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const mysql = require('mysql2/promise');
  const name = `portal_bench_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  const asRoot = async (work) => {
    const root = await mysql.createConnection({ socketPath: SOCKET, user: 'root' });
    try {
      await work(root);
    } finally {
      await root.end();
    }
  };
  await asRoot(async (root) => {
    await root.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await root.query('CREATE USER ?@? IDENTIFIED BY ?', [name, '127.0.0.1', password]);
    await root.query(`GRANT ALL ON \`${name}\`.* TO ?@?`, [name, '127.0.0.1']);
  });
  return {
    url: `mysql://${name}:${password}@127.0.0.1:3306/${name}`,
    drop: () =>
      asRoot(async (root) => {
        await root.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await root.query('DROP USER IF EXISTS ?@?', [name, '127.0.0.1']);
      }),
  };
}
