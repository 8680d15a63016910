import { contentDisposition, parseRange } from './http-range';

describe('parseRange', () => {
  it.each([
    [undefined, null],
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
    ['bytes=999-999', { start: 999, end: 999 }],
    ['bytes=1000-', 'unsatisfiable'],
    ['bytes=5000-6000', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=5-2', null],
    ['bytes=0-1,5-9', null],
    ['items=0-5', null],
    ['bytes=abc', null],
    ['bytes=-', null],
  ])('%s on 1000 bytes gives %j', (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });

  it('finds nothing to serve in an empty file', () => {
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('StreamHub Setup ä 2.1.0.exe')).toBe(
      `attachment; filename="StreamHub Setup _ 2.1.0.exe"; filename*=UTF-8''StreamHub%20Setup%20%C3%A4%202.1.0.exe`,
    );
    expect(contentDisposition("it's (new).zip")).toBe(`attachment; filename="it's (new).zip"; filename*=UTF-8''it%27s%20%28new%29.zip`);
  });
});

describe('parseRange on headers range-parser reads differently from RFC 9110', () => {
  it.each([
    ['BYTES=0-9', { start: 0, end: 9 }],
    [' bytes=10-19 ', { start: 10, end: 19 }],
    ['bytes=5-2,0-1', null],
    ['items=5-2', null],
    ['bytes=-1000', { start: 0, end: 999 }],
    ['bytes=-1001', { start: 0, end: 999 }],
  ])('%s on 1000 bytes gives %j', (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });

  it('finds no suffix to serve in an empty file', () => {
    expect(parseRange('bytes=-5', 0)).toBe('unsatisfiable');
  });
});
