import type { DataSource, EntityMetadata, ObjectLiteral, Repository } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { PreparedSql } from './prepared-sql';

/**
 * Entities read by id through one prepared statement and built from their column metadata, the way TypeORM builds
 * them (each value through the driver's `prepareHydratedValue`, so dates, booleans and transformers come out the
 * same): what a list's page loads once it has its ids (readPageByIds). TypeORM's `find` builds its SQL from find
 * options on every call and hydrates through its general alias and join machinery, which the lists' targets do not
 * afford (docs/ARCHITECTURE.md, Where we leave the framework; test/entity-rows.e2e-spec.ts holds both to the same).
 */
export class EntityRows<T extends ObjectLiteral & { id: number }> {
  private static readonly readers = new WeakMap<EntityMetadata, EntityRows<ObjectLiteral & { id: number }>>();
  private readonly sql: PreparedSql;
  private readonly columns: ColumnMetadata[];
  private readonly select: string;

  private constructor(
    private readonly dataSource: DataSource,
    private readonly metadata: EntityMetadata,
  ) {
    this.sql = PreparedSql.for(dataSource);
    this.columns = metadata.columns.filter((column) => !column.isVirtual);
    const escape = (name: string) => dataSource.driver.escape(name);
    const columns = this.columns.map((column) => escape(column.databaseName)).join(', ');
    this.select = `SELECT ${columns} FROM ${escape(metadata.tableName)} WHERE ${escape(this.primary().databaseName)} IN `;
  }

  /** The reader of a repository's entity (one per entity and data source). */
  static of<T extends ObjectLiteral & { id: number }>(repository: Repository<T>): EntityRows<T> {
    return EntityRows.forMetadata<T>(repository.manager.connection, repository.metadata);
  }

  private static forMetadata<T extends ObjectLiteral & { id: number }>(dataSource: DataSource, metadata: EntityMetadata): EntityRows<T> {
    let reader = EntityRows.readers.get(metadata);
    if (!reader) EntityRows.readers.set(metadata, (reader = new EntityRows(dataSource, metadata)));
    return reader as unknown as EntityRows<T>;
  }

  /** The entities with these ids, in no particular order (an id without a row is left out). */
  async byIds(ids: readonly number[]): Promise<T[]> {
    if (!ids.length) return [];
    const rows = await this.sql.all<Record<string, unknown>>(`${this.select}(${ids.map(() => '?').join(', ')})`, [...ids]);
    return rows.map((row) => this.entity(row));
  }

  /**
   * The same, each with its many-to-one `relation` (`version` of a file, `license` of a device) read by the related
   * entity's ids in one statement, as `find({ relations })` gives it (left unset where there is none).
   */
  async byIdsWith(ids: readonly number[], relation: string): Promise<T[]> {
    const rows = await this.byIds(ids);
    const meta = this.metadata.findRelationWithPropertyPath(relation);
    if (!meta?.isManyToOne || meta.joinColumns.length !== 1) throw new Error(`${this.metadata.name}.${relation} is not a many-to-one`);
    const foreignKey = meta.joinColumns[0].propertyName;
    const keys = [...new Set(rows.map((row) => row[foreignKey] as number | null).filter((key): key is number => key != null))];
    const related = new Map(
      (await EntityRows.forMetadata(this.dataSource, meta.inverseEntityMetadata).byIds(keys)).map((entity) => [entity.id, entity]),
    );
    for (const row of rows) {
      const found = related.get(row[foreignKey] as number);
      if (found) (row as Record<string, unknown>)[relation] = found;
    }
    return rows;
  }

  private entity(row: Record<string, unknown>): T {
    const entity = this.metadata.create(undefined, { fromDeserializer: true }) as T;
    const driver = this.dataSource.driver;
    for (const column of this.columns) column.setEntityValue(entity, driver.prepareHydratedValue(row[column.databaseName], column));
    return entity;
  }

  private primary(): ColumnMetadata {
    const [primary, ...more] = this.metadata.primaryColumns;
    if (!primary || more.length) throw new Error(`${this.metadata.name} has no single primary key`);
    return primary;
  }
}
