import { randomBytes } from 'node:crypto';
import { createConnection, Connection } from 'mysql2/promise';

/** Where the MariaDB tests connect; the user may create and drop databases named portal_e2e_*. */
const SERVER_URL = process.env.TEST_MYSQL_URL ?? 'mysql://portal_test:portal_test@127.0.0.1:3306';
const SOCKET = process.env.TEST_MYSQL_SOCKET ?? '/run/mysqld/mysqld.sock';

async function connectAsTestUser(): Promise<Connection> {
  try {
    return await createConnection(SERVER_URL);
  } catch (error) {
    if (!String((error as { code?: string }).code).startsWith('ER_ACCESS_DENIED')) throw error;
    // First run on this machine: create the test user as root over the socket (root has no TCP password here).
    const root = await createConnection({ socketPath: SOCKET, user: 'root' });
    const { username, password } = new URL(SERVER_URL);
    for (const host of ['localhost', '127.0.0.1']) {
      await root.query(`CREATE USER IF NOT EXISTS ?@? IDENTIFIED BY ?`, [username, host, password]);
      await root.query(`GRANT ALL ON \`portal\\_e2e\\_%\`.* TO ?@?`, [username, host]);
    }
    await root.end();
    return createConnection(SERVER_URL);
  }
}

export interface TestDatabase {
  /** DATABASE_URL for the app; absent means SQLite in DATA_DIR. */
  url?: string;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (process.env.TEST_DB !== 'mariadb') return { drop: async () => undefined };
  const name = `portal_e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  const connection = await connectAsTestUser();
  await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await connection.end();
  return {
    url: `${SERVER_URL}/${name}`,
    drop: async () => {
      const cleanup = await connectAsTestUser();
      await cleanup.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await cleanup.end();
    },
  };
}
