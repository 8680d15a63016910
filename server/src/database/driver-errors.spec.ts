import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable, isForeignKeyViolation, isUniqueViolation, isValueTooLong } from './driver-errors';

const failed = (code: string) => new QueryFailedError('INSERT …', [], Object.assign(new Error(code), { code }));

describe('driver errors', () => {
  it('recognises a unique violation from either engine, wrapped by TypeORM or not', () => {
    expect(isUniqueViolation(failed('ER_DUP_ENTRY'))).toBe(true);
    expect(isUniqueViolation(failed('SQLITE_CONSTRAINT_UNIQUE'))).toBe(true);
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' })).toBe(true);
    expect(isUniqueViolation(failed('SQLITE_CONSTRAINT_FOREIGNKEY'))).toBe(false);
    expect(isUniqueViolation(new Error('no code'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });

  it('tells a foreign-key violation, a value too long and a lost database apart', () => {
    expect(isForeignKeyViolation(failed('ER_NO_REFERENCED_ROW_2'))).toBe(true);
    expect(isForeignKeyViolation(failed('SQLITE_CONSTRAINT_FOREIGNKEY'))).toBe(true);
    expect(isForeignKeyViolation(failed('ER_DUP_ENTRY'))).toBe(false);
    expect(isValueTooLong(failed('ER_DATA_TOO_LONG'))).toBe(true);
    expect(isValueTooLong(failed('ER_DUP_ENTRY'))).toBe(false);
    expect(isDatabaseUnavailable({ code: 'ECONNREFUSED' })).toBe(true);
    expect(isDatabaseUnavailable({ fatal: true })).toBe(true);
    expect(isDatabaseUnavailable(failed('ER_DUP_ENTRY'))).toBe(false);
  });
});
