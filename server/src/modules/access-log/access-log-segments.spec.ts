import {
  decodeSegment,
  encodeSegments,
  NewAccessLogRow,
  SEGMENT_ID_STRIDE,
  SEGMENT_MAX_BYTES,
  SEGMENT_MAX_ROWS,
  SegmentRows,
} from './access-log-segments';

const row = (i: number, fields: Partial<NewAccessLogRow> = {}): NewAccessLogRow => ({
  method: 'GET',
  route: '/api/me',
  path: '/api/me',
  status: 200,
  duration_ms: i % 9,
  bytes_out: i * 7,
  user_id: null,
  user_email: null,
  ip_address: '127.0.0.1',
  user_agent: 'agent',
  created_at: new Date(Date.UTC(2026, 10, 28) + i),
  ...fields,
});

describe('access-log segments', () => {
  it('gives back every value as stored, in order, with ids of the segment and place', () => {
    const rows = [
      row(0, { user_email: "o'brien\\@x.test", user_agent: 'quote " tab \t newline \n emoji 🎉 ü', user_id: 42 }),
      row(1, { ip_address: null, user_agent: null, status: 503, method: 'DELETE' }),
      row(2, { path: '/api/Ünïcode/ä', route: '-', created_at: new Date(Date.UTC(2026, 10, 27)) }),
      row(3, { duration_ms: 2 ** 31 - 1, bytes_out: 0, user_id: 1 }),
    ];
    const [segment] = encodeSegments(rows);
    expect(decodeSegment(7, segment.body)).toEqual(rows.map((r, place) => ({ id: 7 * SEGMENT_ID_STRIDE + place, ...r })));
    expect(segment).toMatchObject({
      row_count: 4,
      errors: 1,
      warnings: 0,
      first_at: new Date(Date.UTC(2026, 10, 27)),
      last_at: new Date(Date.UTC(2026, 10, 28) + 3),
    });
  });

  it('tells which texts start with a prefix, case aside, or that none does, and which statuses its rows have', () => {
    const [segment] = encodeSegments([
      row(0, { path: '/api/Users/1', status: 404 }),
      row(1, { path: '/api/users/2', user_email: 'A@x.test' }),
    ]);
    const rows = new SegmentRows(1, segment.body);
    const marks = rows.textsStartingWith('/api/users/')!;
    expect([rows.path(0), rows.path(1)].map((text) => marks[text])).toEqual([1, 1]);
    expect(marks[rows.route(0)]).toBe(0);
    expect(rows.textsStartingWith('a@x')![rows.email(1)]).toBe(1);
    // A search's matching rows, asked again: the same answer (kept).
    const found = rows.matching('/api/users/', null, null);
    expect(rows.matching('/api/users/', null, null)).toBe(found);
    expect(found).toEqual([0, 1]);
    expect(rows.matching('404', 404, null)).toEqual([0]);
    expect(rows.matching('/api/users/', null, 'a@')).toEqual([1]);
    expect(rows.matching('/api/nothing', null, null)).toBeNull();
    expect(rows.textsStartingWith('/api/nothing')).toBeNull();
    expect([404, 200, 500].map((status) => rows.hasStatus(status))).toEqual([true, true, false]);
  });

  it('counts each distinct lower-cased value of a kind once per segment, with its rows and their 5xx and 4xx', () => {
    const rows = [
      row(0, { path: '/API/Me', user_email: 'A@x.test' }),
      row(1, { path: '/api/me', user_email: 'a@x.test', status: 404 }),
      row(2, { ip_address: '2001:DB8::1' }),
    ];
    const [segment] = encodeSegments(rows);
    const c = (hits: number, errors = 0, warnings = 0) => ({ hits, errors, warnings });
    expect(Object.fromEntries(segment.terms)).toEqual({
      'p/api/me': c(3, 0, 1),
      'r/api/me': c(3, 0, 1),
      s200: c(2),
      s404: c(1, 0, 1),
      'i127.0.0.1': c(2, 0, 1),
      'i2001:db8::1': c(1),
      'ea@x.test': c(2, 0, 1),
    });
  });

  it(`keeps a segment within ${SEGMENT_MAX_ROWS} rows and ${SEGMENT_MAX_BYTES} bytes, splitting a batch in its order`, () => {
    const many = Array.from({ length: SEGMENT_MAX_ROWS * 2 + 5 }, (_, i) => row(i, { bytes_out: 612 }));
    expect(encodeSegments(many).map((s) => s.row_count)).toEqual([SEGMENT_MAX_ROWS, SEGMENT_MAX_ROWS, 5]);
    // Long texts, different in every row: too many bytes for one segment.
    const long = Array.from({ length: 300 }, (_, i) => row(i, { user_agent: `${i} ${'é'.repeat(480)}` }));
    const segments = encodeSegments(long);
    expect(segments.length).toBeGreaterThan(1);
    for (const segment of segments) expect(Buffer.byteLength(segment.body)).toBeLessThanOrEqual(SEGMENT_MAX_BYTES);
    expect(segments.flatMap((segment, i) => decodeSegment(i, segment.body).map(({ id: _id, ...r }) => r))).toEqual(long);
  });

  it('never writes a body that is not JSON, whatever numbers it is given', () => {
    const [segment] = encodeSegments([row(0, { duration_ms: NaN, bytes_out: Infinity, status: 200.7 })]);
    expect(decodeSegment(1, segment.body)[0]).toMatchObject({ duration_ms: 0, bytes_out: 0, status: 200 });
  });
});
