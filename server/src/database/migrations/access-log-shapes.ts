import { QueryRunner, Table, TableIndex } from 'typeorm';
import { dateTimeColumn, idColumn } from '../columns';
import { Param, PreparedSql } from '../prepared-sql';

/*
 * The access log's two shapes, and moving its rows from one to the other, for the migrations between them
 * (AccessLogSegments, AccessLogTable): one row per request in access_logs, or batches of rows in
 * access_log_segments (a compact JSON body each) with their searchable values in access_log_terms. The code that
 * wrote and read segments is gone; what the migrations need of their format is here, frozen with them.
 */

/** A row's fields, in the order a segment's body holds them. */
const FIELDS = [
  'method',
  'route',
  'path',
  'status',
  'duration_ms',
  'bytes_out',
  'user_id',
  'user_email',
  'ip_address',
  'user_agent',
  'created_at',
] as const;

interface Row {
  method: string;
  route: string;
  path: string;
  status: number;
  duration_ms: number;
  bytes_out: number;
  user_id: number | null;
  user_email: string | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Date;
}

/** A body: the first row's time (ms), its rows' texts once each, then FIELDS of each row as numbers. */
interface Body {
  t: number;
  s: string[];
  r: number[];
}
/** A null text or user id in a body. */
const NONE = -1;
/** Rows of access_logs, or segments (up to 2,000 rows each), read at a time. */
const ROWS_PER_READ = 1_000;
const SEGMENTS_PER_READ = 20;

const isMysql = (queryRunner: QueryRunner) => ['mysql', 'mariadb'].includes(queryRunner.connection.driver.options.type);

/** access_logs, with the indexes its lists read: on MySQL/MariaDB also each searched column's, with created_at. */
export async function createAccessLogTable(queryRunner: QueryRunner): Promise<void> {
  const search = isMysql(queryRunner) ? ['ip_address', 'user_email', 'route', 'path'] : [];
  await queryRunner.createTable(
    new Table({
      name: 'access_logs',
      columns: [
        idColumn(),
        { name: 'method', type: 'varchar', length: '10' },
        { name: 'route', type: 'varchar', length: '150' },
        { name: 'path', type: 'varchar', length: '500' },
        { name: 'status', type: 'smallint' },
        { name: 'duration_ms', type: 'integer' },
        { name: 'bytes_out', type: 'integer' },
        { name: 'user_id', type: 'integer', isNullable: true },
        { name: 'user_email', type: 'varchar', length: '255', isNullable: true },
        { name: 'ip_address', type: 'varchar', length: '64', isNullable: true },
        { name: 'user_agent', type: 'varchar', length: '500', isNullable: true },
        dateTimeColumn('created_at', false),
      ],
      indices: [['created_at'], ['status', 'created_at'], ...search.map((column) => [column, 'created_at'])].map(
        (columns) => new TableIndex({ name: `IDX_access_logs_${columns.join('_')}`, columnNames: columns }),
      ),
    }),
  );
}

export async function createSegmentTables(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.createTable(
    new Table({
      name: 'access_log_segments',
      columns: [
        idColumn(),
        dateTimeColumn('first_at', false),
        dateTimeColumn('last_at', false),
        { name: 'row_count', type: 'integer' },
        { name: 'errors', type: 'integer' },
        { name: 'warnings', type: 'integer' },
        { name: 'body', type: 'text' },
      ],
      indices: [new TableIndex({ name: 'IDX_access_log_segments_last_at', columnNames: ['last_at'] })],
    }),
  );
  await queryRunner.createTable(
    new Table({
      name: 'access_log_terms',
      columns: [
        { name: 'segment_id', type: 'integer', isPrimary: true },
        { name: 'n', type: 'integer', isPrimary: true },
        { name: 'value', type: 'varchar', length: '501' },
        { name: 'hits', type: 'integer' },
        { name: 'errors', type: 'integer' },
        { name: 'warnings', type: 'integer' },
      ],
      indices: [
        new TableIndex({
          name: 'IDX_access_log_terms_value_segment_id',
          columnNames: ['value', 'segment_id', 'hits', 'errors', 'warnings'],
        }),
      ],
    }),
  );
}

/** Every segment's rows into access_logs, in the order they were stored. */
export async function moveSegmentsToTable(queryRunner: QueryRunner): Promise<void> {
  const sql = PreparedSql.for(queryRunner.connection);
  for (let after = 0; ;) {
    const segments: Array<{ id: number; body: string }> = await queryRunner.query(
      `SELECT id, body FROM access_log_segments WHERE id > ? ORDER BY id LIMIT ${SEGMENTS_PER_READ}`,
      [after],
    );
    if (!segments.length) return;
    after = Number(segments[segments.length - 1].id);
    const rows = segments.flatMap((segment) => rowsOf(segment.body));
    await insert(
      queryRunner,
      sql,
      'access_logs',
      FIELDS,
      rows.map((row) => FIELDS.map((field) => row[field])),
    );
  }
}

/** Every row of access_logs into a segment of its own, with its terms, in the order stored. */
export async function moveTableToSegments(queryRunner: QueryRunner): Promise<void> {
  const sql = PreparedSql.for(queryRunner.connection);
  for (let after = 0; ;) {
    const stored: Array<Record<string, unknown>> = await queryRunner.query(
      `SELECT * FROM access_logs WHERE id > ? ORDER BY id LIMIT ${ROWS_PER_READ}`,
      [after],
    );
    if (!stored.length) return;
    after = Number(stored[stored.length - 1].id);
    const segments: Param[][] = [];
    const terms: Param[][] = [];
    for (const raw of stored) {
      const row = readRow(sql, raw);
      // The segment takes the row's id: the table is new, its ids in the order stored.
      const id = Number(raw.id);
      const errors = row.status >= 500 ? 1 : 0;
      const warnings = row.status >= 400 && !errors ? 1 : 0;
      segments.push([id, row.created_at, row.created_at, 1, errors, warnings, bodyOf(row)]);
      termsOf(row).forEach((value, n) => terms.push([id, n, value, 1, errors, warnings]));
    }
    await insert(
      queryRunner,
      sql,
      'access_log_segments',
      ['id', 'first_at', 'last_at', 'row_count', 'errors', 'warnings', 'body'],
      segments,
    );
    await insert(queryRunner, sql, 'access_log_terms', ['segment_id', 'n', 'value', 'hits', 'errors', 'warnings'], terms);
  }
}

/** The rows of a segment's body, in the order stored. */
function rowsOf(text: string): Row[] {
  const { t, s, r } = JSON.parse(text) as Body;
  const textAt = (place: number) => (place === NONE ? null : s[place]);
  const rows: Row[] = [];
  for (let at = 0; at < r.length; at += FIELDS.length) {
    rows.push({
      method: s[r[at]],
      route: s[r[at + 1]],
      path: s[r[at + 2]],
      status: r[at + 3],
      duration_ms: r[at + 4],
      bytes_out: r[at + 5],
      user_id: r[at + 6] === NONE ? null : r[at + 6],
      user_email: textAt(r[at + 7]),
      ip_address: textAt(r[at + 8]),
      user_agent: textAt(r[at + 9]),
      created_at: new Date(t + r[at + 10]),
    });
  }
  return rows;
}

/** The body of a segment holding `row` alone. */
function bodyOf(row: Row): string {
  const texts: string[] = [];
  const place = (text: string | null) => (text === null ? NONE : texts.push(text) - 1);
  const numbers = [
    place(row.method),
    place(row.route),
    place(row.path),
    row.status,
    row.duration_ms,
    row.bytes_out,
    row.user_id ?? NONE,
    place(row.user_email),
    place(row.ip_address),
    place(row.user_agent),
    0,
  ];
  return JSON.stringify({ t: row.created_at.getTime(), s: texts, r: numbers });
}

/** The row's searchable values: lower-cased, each behind a letter for its kind (path, route, address, e-mail, status). */
function termsOf(row: Row): string[] {
  const texts: Array<[string, string | null]> = [
    ['p', row.path],
    ['r', row.route],
    ['i', row.ip_address],
    ['e', row.user_email],
  ];
  return [...texts.flatMap(([kind, text]) => (text === null ? [] : [`${kind}${text.toLowerCase()}`.slice(0, 501)])), `s${row.status}`];
}

function readRow(sql: PreparedSql, raw: Record<string, unknown>): Row {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    method: String(raw.method),
    route: String(raw.route),
    path: String(raw.path),
    status: Number(raw.status),
    duration_ms: Number(raw.duration_ms),
    bytes_out: Number(raw.bytes_out),
    user_id: raw.user_id === null ? null : Number(raw.user_id),
    user_email: text(raw.user_email),
    ip_address: text(raw.ip_address),
    user_agent: text(raw.user_agent),
    created_at: sql.readDate(raw.created_at)!,
  };
}

/** Multi-row INSERTs on the migration's connection (dates as the column stores them). */
async function insert(queryRunner: QueryRunner, sql: PreparedSql, table: string, columns: readonly string[], rows: Param[][]) {
  for (const statement of sql.insertStatements(table, [...columns], rows)) {
    await queryRunner.query(
      statement.sql,
      statement.params.map((param) => (param instanceof Date ? sql.date(param) : param)),
    );
  }
}
