import { Column, ColumnOptions, QueryRunner, TableColumnOptions, ValueTransformer } from 'typeorm';

/**
 * Column helpers for entities and migrations, side by side. Entities take one decorator per kind of column below
 * (created_at and updated_at are TypeORM's @CreateDateColumn and @UpdateDateColumn); the migration helpers return
 * the same definitions per driver, so one migration fits SQLite and MySQL and the schema-diff test stays empty on both.
 */
type Extra = Pick<ColumnOptions, 'nullable' | 'default'>;

export const VarcharColumn = (length: number, extra?: Extra) => Column({ type: 'varchar', length, ...extra });
export const IntColumn = (extra?: Extra) => Column({ type: 'int', ...extra });
export const BooleanColumn = (extra?: Extra) => Column({ type: 'boolean', ...extra });
/** Milliseconds kept on both engines (TypeORM's default datetime drops them on MySQL). */
export const DateTimeColumn = (extra?: Extra) => Column({ type: 'datetime', precision: 3, ...extra });
/** BIGINT read back as a number on both engines (sizes and counts stay far below 2^53). */
const asNumber: ValueTransformer = { to: (value: unknown) => value, from: (value: unknown) => (value == null ? value : Number(value)) };
export const BigIntColumn = (extra?: Extra) => Column({ type: 'bigint', transformer: asNumber, ...extra });

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
