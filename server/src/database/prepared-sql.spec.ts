import { DataSource } from 'typeorm';
import { PreparedSql } from './prepared-sql';

describe('PreparedSql on SQLite', () => {
  let dataSource: DataSource;
  let sql: PreparedSql;

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, flag INTEGER, at TEXT)');
    sql = PreparedSql.for(dataSource);
  });
  afterAll(() => dataSource.destroy());
  beforeEach(() => dataSource.query('DELETE FROM items'));

  it.each([0, 1, 3, 17, 256, 300, 1000])('inserts %i rows in order, whatever statement sizes they are split into', async (count) => {
    const rows = Array.from({ length: count }, (_, i) => [i + 1, `item ${i + 1}`, i % 2 === 0, new Date(Date.UTC(2026, 0, 1, 0, 0, i))]);
    await sql.insertMany('items', ['id', 'name', 'flag', 'at'], rows);
    const stored = await dataSource.query('SELECT id, name, flag, at FROM items ORDER BY id');
    expect(stored).toHaveLength(count);
    stored.forEach((row: { id: number; name: string; flag: number; at: string }, i: number) => {
      expect(row).toEqual({ id: i + 1, name: `item ${i + 1}`, flag: i % 2 === 0 ? 1 : 0, at: expect.any(String) });
      expect(sql.readDate(row.at)).toEqual(rows[i][3]);
    });
  });

  it('reads one row or all rows of a query', async () => {
    await sql.insertMany(
      'items',
      ['id', 'name', 'flag', 'at'],
      [
        [1, 'one', true, null],
        [2, 'two', false, null],
      ],
    );
    expect(await sql.one('SELECT name FROM items WHERE id = ?', [2])).toEqual({ name: 'two' });
    expect(await sql.one('SELECT name FROM items WHERE id = ?', [3])).toBeUndefined();
    expect(await sql.all('SELECT name FROM items WHERE id > ? ORDER BY id', [0])).toEqual([{ name: 'one' }, { name: 'two' }]);
  });

  it('inserts all or nothing: one bad row leaves none of the batch', async () => {
    const rows = Array.from({ length: 70 }, (_, i) => [i + 1, i === 65 ? null : `item ${i + 1}`, false, null]);
    await expect(sql.insertMany('items', ['id', 'name', 'flag', 'at'], rows)).rejects.toThrow(/NOT NULL/);
    expect(await dataSource.query('SELECT COUNT(*) AS n FROM items')).toEqual([{ n: 0 }]);
  });
});
