import { DataSource } from 'typeorm';
import { DateUtils } from 'typeorm/util/DateUtils';
import { sqliteFile } from './sqlite-file';
import { SqliteWriteGate } from './sqlite-write-gate';

export type Param = string | number | boolean | null | Date;

/** Rows per SQLite INSERT statement, largest first (at 256 rows, 32 columns stay under SQLite's 32,766 parameters). */
const SQLITE_INSERT_SIZES = [256, 64, 16, 4, 1];
/** Rows per MySQL INSERT; a full one runs as a server-side prepared statement (see insertStatements). */
const MYSQL_INSERT_ROWS = 500;
/** A prepared statement takes at most this many parameters. */
const MYSQL_MAX_PARAMS = 65_535;

interface SqliteStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
}
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  pragma(sql: string): unknown;
  close(): void;
  transaction<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
}
interface MysqlQueryable {
  execute(sql: string, params: unknown[], callback: (error: Error | null, result: unknown) => void): void;
  query(sql: string, params: unknown[], callback: (error: Error | null, result: unknown) => void): void;
}
interface MysqlConnection extends MysqlQueryable {
  release(): void;
  destroy(): void;
}
interface MysqlPool extends MysqlQueryable {
  getConnection(callback: (error: Error | null, connection: MysqlConnection) => void): void;
}

/** The values of rows[start..end) in one list (cheaper than the generic Array.prototype.flat). */
function flatten(rows: Param[][], start: number, end: number): Param[] {
  const values: Param[] = [];
  for (let i = start; i < end; i++) for (const value of rows[i]) values.push(value);
  return values;
}

export interface InsertOptions {
  /** Skip rows that a unique index already holds. */
  ignoreDuplicates?: boolean;
}

/** One statement with its parameters (see `PreparedSql.atomically`). */
export interface SqlStatement {
  sql: string;
  params: Param[];
  /** MySQL: run as a server-side prepared statement (binary values, parsed once per connection), not as text. */
  prepared?: boolean;
}

/** For hot paths where building a TypeORM query costs more than running it; SQL here must run on both engines (`?`, standard syntax). */
export class PreparedSql {
  private static readonly instances = new WeakMap<DataSource, PreparedSql>();
  private readonly statements = new Map<string, SqliteStatement>();
  /** SQLite file: the read-only connection of `bulk` (opened on first use, null once closed), and its statements. */
  private bulkReader: SqliteDatabase | null | undefined;
  private readonly bulkStatements = new Map<string, SqliteStatement>();
  private readonly inserts = new Map<string, string>();
  /** SQLite: writes wait here while the WAL checkpointer makes its last copy (reads never do). */
  private readonly writeGate: SqliteWriteGate;
  readonly engine: 'sqlite' | 'mysql';

  private constructor(private readonly dataSource: DataSource) {
    this.engine = dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql';
    this.writeGate = SqliteWriteGate.for(dataSource);
  }

  static for(dataSource: DataSource): PreparedSql {
    let instance = PreparedSql.instances.get(dataSource);
    if (!instance) PreparedSql.instances.set(dataSource, (instance = new PreparedSql(dataSource)));
    return instance;
  }

  async all<T>(sql: string, params: Param[]): Promise<T[]> {
    if (this.engine === 'sqlite') return this.statement(sql).all(...this.bind(params)) as T[];
    return this.mysql<T[]>('execute', sql, params);
  }

  /** On a SQLite file, its own read-only connection, so an export neither grows the app's page cache nor evicts its hot pages. */
  async bulk<T>(sql: string, params: Param[]): Promise<T[]> {
    const reader = this.openBulkReader();
    if (!reader) return this.all<T>(sql, params);
    let statement = this.bulkStatements.get(sql);
    if (!statement) this.bulkStatements.set(sql, (statement = reader.prepare(sql)));
    return statement.all(...this.bind(params)) as T[];
  }

  /** Closes the connection of `bulk` (at application shutdown); later bulk reads go through the app's connection. */
  static closeBulkReader(dataSource: DataSource): void {
    const instance = PreparedSql.instances.get(dataSource);
    if (!instance) return;
    instance.bulkReader?.close();
    instance.bulkReader = null;
    instance.bulkStatements.clear();
  }

  async one<T>(sql: string, params: Param[]): Promise<T | undefined> {
    if (this.engine === 'sqlite') return this.statement(sql).get(...this.bind(params)) as T | undefined;
    const rows = await this.mysql<T[]>('execute', sql, params);
    return rows[0];
  }

  async run(sql: string, params: Param[]): Promise<number> {
    if (this.engine === 'sqlite') {
      const closed = this.writeGate.closed;
      if (closed) await closed;
      return this.statement(sql).run(...this.bind(params)).changes;
    }
    const result = await this.mysql<{ affectedRows: number }>(params.length > 200 ? 'query' : 'execute', sql, params);
    return result.affectedRows;
  }

  /** All or nothing; fixed row counts per INSERT keep prepared statements and driver calls few (see insertStatements). */
  insertMany(table: string, columns: string[], rows: Param[][], options: InsertOptions = {}): Promise<void> {
    return this.atomically(this.insertStatements(table, columns, rows, options));
  }

  /** The statements `insertMany` runs, to run with others in one transaction (`atomically`). */
  insertStatements(table: string, columns: string[], rows: Param[][], options: InsertOptions = {}): SqlStatement[] {
    const statements: SqlStatement[] = [];
    for (let start = 0; start < rows.length;) {
      const left = rows.length - start;
      const count = this.engine === 'sqlite' ? SQLITE_INSERT_SIZES.find((size) => size <= left)! : Math.min(MYSQL_INSERT_ROWS, left);
      // A full MySQL INSERT is prepared: one statement per table and columns, parsed once per connection, its values
      // sent binary, neither escaped into text here nor parsed back there. The last, shorter one goes as text, lest
      // every row count become a statement held on the server.
      statements.push({
        sql: this.insertSql(table, columns, count, options),
        params: flatten(rows, start, start + count),
        prepared: this.engine === 'mysql' && count === MYSQL_INSERT_ROWS && count * columns.length <= MYSQL_MAX_PARAMS,
      });
      start += count;
    }
    return statements;
  }

  /** All or nothing: on SQLite synchronously (nothing else runs meanwhile), on MySQL on one connection taken from the pool. */
  async atomically(statements: SqlStatement[]): Promise<void> {
    if (!statements.length) return;
    if (this.engine === 'sqlite') {
      const closed = this.writeGate.closed;
      if (closed) await closed;
      this.transaction(() => {
        for (const { sql, params } of statements) this.statement(sql).run(...this.bind(params));
      });
      return;
    }
    // `query` (values escaped by the driver) unless the statement says it is worth preparing: multi-row INSERTs of
    // every size would each become a server-side prepared statement.
    if (statements.length === 1) {
      await this.mysql(statements[0].prepared ? 'execute' : 'query', statements[0].sql, statements[0].params);
      return;
    }
    const connection = await new Promise<MysqlConnection>((resolve, reject) =>
      this.pool().getConnection((error, taken) => (error ? reject(error) : resolve(taken))),
    );
    const send = (sql: string, params: Param[] = [], prepared = false) =>
      new Promise<void>((resolve, reject) =>
        connection[prepared ? 'execute' : 'query'](sql, this.bind(params), (error) => (error ? reject(error) : resolve())),
      );
    try {
      await send('START TRANSACTION');
      for (const { sql, params, prepared } of statements) await send(sql, params, prepared);
      await send('COMMIT');
    } catch (error) {
      // A connection whose rollback failed is broken: destroy it rather than hand it back to the pool mid-transaction.
      await send('ROLLBACK').catch(() => connection.destroy());
      throw error;
    } finally {
      connection.release();
    }
  }

  /** `INSERT INTO table (columns) VALUES (?, …), …` for `count` rows, made once per table, columns and count. */
  private insertSql(table: string, columns: string[], count: number, { ignoreDuplicates = false }: InsertOptions): string {
    const key = `${ignoreDuplicates}${table}(${columns.join(',')})${count}`;
    let sql = this.inserts.get(key);
    if (!sql) {
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      const list = columns.map((column) => this.quote(column)).join(', ');
      const insert = ignoreDuplicates ? (this.engine === 'sqlite' ? 'INSERT OR IGNORE' : 'INSERT IGNORE') : 'INSERT';
      sql = `${insert} INTO ${this.quote(table)} (${list}) VALUES ${Array.from({ length: count }, () => tuple).join(', ')}`;
      if (this.engine === 'sqlite' || count === MYSQL_INSERT_ROWS) this.inserts.set(key, sql);
    }
    return sql;
  }

  /** Runs one statement for each parameter list: in one transaction on SQLite, one after another on MySQL. */
  async runEach(sql: string, paramsList: Param[][]): Promise<void> {
    if (this.engine === 'sqlite') {
      const closed = this.writeGate.closed;
      if (closed) await closed;
      const statement = this.statement(sql);
      this.transaction(() => {
        for (const params of paramsList) statement.run(...this.bind(params));
      });
      return;
    }
    for (const params of paramsList) await this.mysql('execute', sql, params);
  }

  quote(identifier: string): string {
    return this.engine === 'sqlite' ? `"${identifier}"` : `\`${identifier}\``;
  }

  /** A date as the column stores it: TypeORM's UTC text on SQLite, a Date for mysql2 (timezone Z). */
  date(value: Date): string | Date {
    return this.engine === 'sqlite' ? DateUtils.mixedDateToUtcDatetimeString(value) : value;
  }

  readDate(value: unknown): Date | null {
    if (value === null || value === undefined) return null;
    if (value instanceof Date) return value;
    return new Date(`${String(value).replace(' ', 'T')}Z`);
  }

  private bind(params: Param[]): unknown[] {
    // undefined as NULL, as text statements write it (a prepared one refuses it).
    return params.map((param) =>
      typeof param === 'boolean' ? (param ? 1 : 0) : param instanceof Date ? this.date(param) : (param ?? null),
    );
  }

  private openBulkReader(): SqliteDatabase | null {
    if (this.bulkReader !== undefined) return this.bulkReader;
    const file = sqliteFile(this.dataSource);
    if (!file) return (this.bulkReader = null);
    // The driver TypeORM loaded; WAL lets this connection read beside the writer, each statement seeing every commit.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require('better-sqlite3') as new (path: string, options: object) => SqliteDatabase;
    const reader = new Database(file, { readonly: true, fileMustExist: true });
    reader.pragma('busy_timeout = 5000');
    return (this.bulkReader = reader);
  }

  private transaction(work: () => void): void {
    (this.dataSource.driver as unknown as { databaseConnection: SqliteDatabase }).databaseConnection.transaction(work)();
  }

  private statement(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      const database = (this.dataSource.driver as unknown as { databaseConnection: SqliteDatabase }).databaseConnection;
      this.statements.set(sql, (statement = database.prepare(sql)));
    }
    return statement;
  }

  private pool(): MysqlPool {
    const driver = this.dataSource.driver as unknown as { pool?: MysqlPool; master?: MysqlPool };
    return driver.pool ?? driver.master!;
  }

  private mysql<T>(method: 'execute' | 'query', sql: string, params: Param[]): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      this.pool()[method](sql, this.bind(params), (error, result) => (error ? reject(error) : resolve(result as T))),
    );
  }
}
