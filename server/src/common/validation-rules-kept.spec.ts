import { getMetadataStorage, IsInt, IsString, Max, validateSync } from 'class-validator';
import { keepValidationRuleLookups } from './validation-rules-kept';

describe('validation rule lookups kept', () => {
  keepValidationRuleLookups();

  class Page {
    @IsInt()
    @Max(100)
    limit!: number;
  }

  const failures = (object: object) =>
    validateSync(object, { whitelist: true, forbidNonWhitelisted: true }).map((error) => [
      error.property,
      Object.keys(error.constraints ?? {}),
    ]);

  it('answers a class the same rules, kept, and still refuses what they refuse', () => {
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Page, '', false, false);
    expect(storage.getTargetValidationMetadatas(Page, '', false, false)).toBe(first);
    expect(first.map((rule) => rule.propertyName)).toEqual(['limit', 'limit']);
    expect(failures(Object.assign(new Page(), { limit: 500 }))).toEqual([['limit', ['max']]]);
    expect(failures(Object.assign(new Page(), { limit: 5, extra: 1 }))).toEqual([['extra', ['whitelistValidation']]]);
    expect(failures(Object.assign(new Page(), { limit: 5 }))).toEqual([]);
  });

  it('gives a class defined after a lookup its own rules and those it inherits', () => {
    expect(failures(Object.assign(new Page(), { limit: 5, search: 'x' }))).toEqual([['search', ['whitelistValidation']]]);
    class SearchPage extends Page {
      @IsString()
      search!: string;
    }
    expect(failures(Object.assign(new SearchPage(), { limit: 500, search: 7 }))).toEqual([
      ['search', ['isString']],
      ['limit', ['max']],
    ]);
    expect(failures(Object.assign(new SearchPage(), { limit: 5, search: 'x' }))).toEqual([]);
    // The parent's answer is unchanged by its child's rules.
    expect(failures(Object.assign(new Page(), { limit: 5, search: 'x' }))).toEqual([['search', ['whitelistValidation']]]);
  });

  it('drops the kept answers when a rule is added to a class already looked up', () => {
    expect(failures(Object.assign(new Page(), { limit: 5, note: 7 }))).toEqual([['note', ['whitelistValidation']]]);
    IsString()(Page.prototype, 'note');
    expect(failures(Object.assign(new Page(), { limit: 5, note: 7 }))).toEqual([['note', ['isString']]]);
  });
});
