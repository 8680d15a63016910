import { DataSource } from 'typeorm';

/** The SQL TypeORM would run to make the database match the entities: empty when migrations and entities agree. */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const sqlInMemory = await dataSource.driver.createSchemaBuilder().log();
  return sqlInMemory.upQueries.map((query) => query.query);
}
