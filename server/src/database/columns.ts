import {
  Column,
  ColumnOptions,
  CreateDateColumn,
  ForeignKey,
  Index,
  ObjectType,
  QueryRunner,
  TableColumnOptions,
  ValueTransformer,
} from 'typeorm';

/**
 * Column helpers for entities and migrations, side by side. Entities take one decorator per kind of column below
 * (updated_at is TypeORM's @UpdateDateColumn); the migration helpers return the same definitions per driver, so one
 * migration fits SQLite and MySQL and the schema-diff test stays empty on both.
 */
type Extra = Pick<ColumnOptions, 'nullable' | 'default'> & {
  /** The name of the column's own (non-unique) index. */
  index?: string;
};

const indexed = (column: PropertyDecorator, index?: string): PropertyDecorator =>
  index
    ? (target, key) => {
        column(target, key);
        Index(index)(target, key);
      }
    : column;
const typed = (type: ColumnOptions, { index, ...extra }: Extra = {}) => indexed(Column({ ...type, ...extra }), index);

export const VarcharColumn = (length: number, extra?: Extra) => typed({ type: 'varchar', length }, extra);
export const IntColumn = (extra?: Extra) => typed({ type: 'int' }, extra);
export const BooleanColumn = (extra?: Extra) => typed({ type: 'boolean' }, extra);
/** Milliseconds kept on both engines (TypeORM's default datetime drops them on MySQL). */
export const DateTimeColumn = (extra?: Extra) => typed({ type: 'datetime', precision: 3 }, extra);
/** BIGINT read back as a number on both engines (sizes and counts stay far below 2^53). */
const asNumber: ValueTransformer = { to: (value: unknown) => value, from: (value: unknown) => (value == null ? value : Number(value)) };
export const BigIntColumn = (extra?: Extra) => typed({ type: 'bigint', transformer: asNumber }, extra);
export const CreatedAt = (index?: string) => indexed(CreateDateColumn(), index);

/**
 * The id of a row of `table`, with the foreign key `name` (as the migration names it): a row that goes with its
 * referenced one (CASCADE), or outlives it holding null (SET NULL).
 */
export function ReferenceColumn<T>(
  table: () => ObjectType<T>,
  name: string,
  onDelete: 'CASCADE' | 'SET NULL',
  index?: string,
): PropertyDecorator {
  const column = IntColumn({ nullable: onDelete === 'SET NULL', index });
  return (target, key) => {
    column(target, key);
    ForeignKey(table, { onDelete, name })(target, key);
  };
}

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
