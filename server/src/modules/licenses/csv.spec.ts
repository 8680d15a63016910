import { csvField, csvRow } from './csv';

describe('csvField', () => {
  it('quotes fields with commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('defuses spreadsheet formulas', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    for (const start of ['+', '-', '@', '\t']) expect(csvField(`${start}1`).includes(`'${start}1`)).toBe(true);
  });

  it('writes numbers, booleans, dates and empty values as they are', () => {
    expect(csvRow([1, -2, true, new Date('2030-01-02T03:04:05.000Z'), null])).toBe('1,-2,true,2030-01-02T03:04:05.000Z,\r\n');
  });
});
