import { QueryRunner, TableColumnOptions } from 'typeorm';

/**
 * Column helpers for migrations. Entities use @CreateDateColumn/@UpdateDateColumn and
 * `datetime(3)`; these return the same definitions per driver, so one migration fits
 * SQLite and MySQL and the schema-diff test stays empty on both.
 */
export function idColumn(): TableColumnOptions {
  return { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
}

export function timestampColumns(queryRunner: QueryRunner): TableColumnOptions[] {
  const types = queryRunner.connection.driver.mappedDataTypes;
  const isMysql = ['mysql', 'mariadb'].includes(queryRunner.connection.driver.options.type);
  return [
    { name: 'created_at', type: types.createDate as string, precision: types.createDatePrecision, default: types.createDateDefault },
    {
      name: 'updated_at',
      type: types.updateDate as string,
      precision: types.updateDatePrecision,
      default: types.updateDateDefault,
      onUpdate: isMysql ? types.updateDateDefault : undefined,
    },
  ];
}

export function createdAtColumn(queryRunner: QueryRunner): TableColumnOptions {
  return timestampColumns(queryRunner)[0];
}

export function dateTimeColumn(name: string, nullable = true): TableColumnOptions {
  return { name, type: 'datetime', precision: 3, isNullable: nullable };
}
