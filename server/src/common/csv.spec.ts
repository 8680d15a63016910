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

  it.each(['  =1+1', '\n=cmd|x', ' \r\n@SUM(A1)', '\u00a0-2+3', '\t \n+1'])('defuses a formula after leading blanks: %j', (text) => {
    const field = csvField(text);
    const unquoted = field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
    expect(unquoted).toBe(`'${text}`);
  });

  it('leaves text that only contains those signs later alone', () => {
    expect(csvField('SH-1234 = key')).toBe('SH-1234 = key');
    expect(csvField(' plain')).toBe(' plain');
  });

  it('writes numbers, booleans, dates and empty values as they are', () => {
    expect(csvRow([1, -2, true, new Date('2030-01-02T03:04:05.000Z'), null])).toBe('1,-2,true,2030-01-02T03:04:05.000Z,\r\n');
  });
});
