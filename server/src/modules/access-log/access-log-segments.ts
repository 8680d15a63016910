import { Cache } from '../../common/cache';
import type { AccessLogRow } from './access-log.entity';

/** A row to store: the access log gives it its id when it is stored. */
export type NewAccessLogRow = Omit<AccessLogRow, 'id'>;

/**
 * Rows a segment holds at most, and the access log's writer stores at a time. Each stored batch costs a few round
 * trips to the database (the segment and its terms in one transaction) and their CPU in Node: spread over 2,000 rows
 * rather than 500, a row's share is a quarter.
 */
export const SEGMENT_MAX_ROWS = 2_000;
/** A row's id is its segment's id times this plus its place in the segment. */
export const SEGMENT_ID_STRIDE = 10_000;
/** Bytes of a segment's body at most: MySQL's TEXT holds 65,535 (a heartbeat's row takes about 30). */
export const SEGMENT_MAX_BYTES = 64_000;

/** The kinds of searchable value, each the letter its terms start with. */
export const TERM_KIND = { path: 'p', route: 'r', ip: 'i', email: 'e', status: 's' } as const;

/** The fields of a row, in the order a segment's body holds them (see `encodeSegments`). */
export const ACCESS_LOG_FIELDS = [
  'method',
  'route',
  'path',
  'status',
  'duration_ms',
  'bytes_out',
  'user_id',
  'user_email',
  'ip_address',
  'user_agent',
  'created_at',
] as const;
const FIELDS = ACCESS_LOG_FIELDS.length;

/** A segment's body: its rows' texts once each, then each row as numbers (NONE for null). */
interface Body {
  /** The first row's time (ms since 1970); each row holds its own as milliseconds after it. */
  t: number;
  /** Every distinct text of the segment's rows (methods, routes, paths, e-mails, addresses, user agents). */
  s: string[];
  /** ACCESS_LOG_FIELDS of each row, one after another: a text as its place in `s`, user_id as is. */
  r: number[];
}
/** A null text or user id in a body. */
export const NONE = -1;

/** A segment as it is stored: the columns of access_log_segments and its terms (value, rows with it). */
export interface EncodedSegment {
  first_at: Date;
  last_at: Date;
  row_count: number;
  errors: number;
  warnings: number;
  body: string;
  terms: Map<string, TermCounts>;
}

/** Rows with a term: all of them, and those with a status of 5xx and 4xx (so a level filter can pass a segment by). */
export interface TermCounts {
  hits: number;
  errors: number;
  warnings: number;
}

class Tally<K> extends Map<K, TermCounts> {
  add(key: K, hits: number, errors: number, warnings: number): void {
    const counts = this.get(key);
    if (counts) {
      counts.hits += hits;
      counts.errors += errors;
      counts.warnings += warnings;
    } else this.set(key, { hits, errors, warnings });
  }
}

/** Bytes of a body besides its rows and texts (`{"t":…,"s":[],"r":[]}`), with room to spare. */
const FRAME_BYTES = 64;

/**
 * The body and terms of the segment of `rows` from `start`: as many rows as fit SEGMENT_MAX_ROWS and
 * SEGMENT_MAX_BYTES (at least one); `end` is where the next segment starts. Texts repeat across a batch (a
 * heartbeat's route and path, a server's address, a browser's user agent), so each goes into the body once and a
 * row holds numbers only.
 */
function encodeSegment(rows: NewAccessLogRow[], start: number): { segment: EncodedSegment; end: number } {
  const strings: string[] = [];
  const places = new Map<string, number>();
  let textBytes = 0;
  const place = (text: string | null): number => {
    if (text === null) return NONE;
    let at = places.get(text);
    if (at === undefined) {
      at = strings.push(text) - 1;
      places.set(text, at);
      textBytes += Buffer.byteLength(JSON.stringify(text)) + 1;
    }
    return at;
  };
  // The terms, counted by text place (lower-cased once per distinct text at the end).
  const kinds = { path: new Tally<number>(), route: new Tally<number>(), ip: new Tally<number>(), email: new Tally<number>() };
  const statuses = new Tally<number>();
  const t = rows[start].created_at.getTime();
  let first = t;
  let last = t;
  let errors = 0;
  let warnings = 0;
  // Each row's numbers as text, joined at the end: cheaper than one long array of numbers built by push.
  const numbers: string[] = [];
  let numberBytes = 0;
  let end = start;
  for (; end < rows.length && end - start < SEGMENT_MAX_ROWS; end++) {
    const row = rows[end];
    const at = row.created_at.getTime();
    const texts = strings.length;
    const [route, path, email, ip] = [place(row.route), place(row.path), place(row.user_email), place(row.ip_address)];
    // `| 0` and `|| 0`: whole numbers always (a NaN would make the whole body unreadable JSON).
    const status = row.status | 0;
    const line =
      `${place(row.method)},${route},${path},${status},${row.duration_ms | 0},${row.bytes_out | 0},` +
      `${row.user_id === null ? NONE : row.user_id | 0},${email},${ip},${place(row.user_agent)},${at - t || 0}`;
    if (numbers.length && FRAME_BYTES + textBytes + numberBytes + line.length + 1 > SEGMENT_MAX_BYTES) {
      // Full: the row's new texts come out again, and it starts the next segment.
      for (const text of strings.splice(texts)) {
        places.delete(text);
        textBytes -= Buffer.byteLength(JSON.stringify(text)) + 1;
      }
      break;
    }
    numbers.push(line);
    numberBytes += line.length + 1;
    if (at < first) first = at;
    if (at > last) last = at;
    const error = status >= 500 ? 1 : 0;
    const warning = status >= 400 && !error ? 1 : 0;
    errors += error;
    warnings += warning;
    kinds.route.add(route, 1, error, warning);
    kinds.path.add(path, 1, error, warning);
    if (email !== NONE) kinds.email.add(email, 1, error, warning);
    if (ip !== NONE) kinds.ip.add(ip, 1, error, warning);
    statuses.add(status, 1, error, warning);
  }
  const terms = new Tally<string>();
  for (const [kind, tally] of Object.entries(kinds) as Array<[keyof typeof kinds, Tally<number>]>) {
    for (const [at, counts] of tally) {
      terms.add(TERM_KIND[kind] + strings[at].toLowerCase(), counts.hits, counts.errors, counts.warnings);
    }
  }
  for (const [status, counts] of statuses) terms.set(TERM_KIND.status + status, counts);
  const segment = {
    first_at: new Date(first),
    last_at: new Date(last),
    row_count: numbers.length,
    errors,
    warnings,
    body: `{"t":${t},"s":${JSON.stringify(strings)},"r":[${numbers.join(',')}]}`,
    terms,
  };
  return { segment, end };
}

/** The rows in segments, in the order given: each at most SEGMENT_MAX_ROWS rows and SEGMENT_MAX_BYTES bytes. */
export function encodeSegments(rows: NewAccessLogRow[]): EncodedSegment[] {
  const segments: EncodedSegment[] = [];
  for (let start = 0; start < rows.length;) {
    const { segment, end } = encodeSegment(rows, start);
    segments.push(segment);
    start = end;
  }
  return segments;
}

/** Searches whose matching rows a parsed segment caches (those of a few open screens). */
const SEARCHES_CACHED = 8;
/** As long as the segment itself may stay cached parsed (see AccessLogService). */
const SEARCHES_TTL_MS = 5 * 60_000;

/**
 * A stored segment's rows, read for a list: a row's fields are read where they are (a test of every row makes no
 * object of it), and each distinct text is tested once for all the rows that have it (`matching`).
 */
export class SegmentRows {
  readonly length: number;
  private readonly t: number;
  private readonly s: string[];
  private readonly r: number[];
  /** The texts lower-cased, once a search has asked (a segment cached parsed is searched again). */
  private lower: string[] | null = null;
  /** `matching`'s results, by search (made on the first search). */
  private found: Cache<{ places: number[] | null }> | null = null;
  /** The statuses its rows have, once asked. */
  private statuses: Set<number> | null = null;

  constructor(
    readonly id: number,
    body: string,
  ) {
    const { t, s, r } = JSON.parse(body) as Body;
    this.t = t;
    this.s = s;
    this.r = r;
    this.length = r.length / FIELDS;
  }

  status(place: number): number {
    return this.r[place * FIELDS + 3];
  }

  /** The row's time, in ms since 1970. */
  time(place: number): number {
    return this.t + this.r[place * FIELDS + 10];
  }

  /** route, path, email, ip: the place of the row's text among the segment's texts (NONE for none). */
  route(place: number): number {
    return this.r[place * FIELDS + 1];
  }

  path(place: number): number {
    return this.r[place * FIELDS + 2];
  }

  email(place: number): number {
    return this.r[place * FIELDS + 7];
  }

  ip(place: number): number {
    return this.r[place * FIELDS + 8];
  }

  /** For each of the segment's texts, 1 where it starts with `prefix` (lower-case), case aside; null where none does. */
  textsStartingWith(prefix: string): Uint8Array | null {
    this.lower ??= this.s.map((text) => text.toLowerCase());
    let marks: Uint8Array | null = null;
    for (let i = 0; i < this.lower.length; i++) {
      if (!this.lower[i].startsWith(prefix)) continue;
      marks ??= new Uint8Array(this.lower.length);
      marks[i] = 1;
    }
    return marks;
  }

  /**
   * The places, in order, of the rows matching a search for `term` (a path, route, address or e-mail starting with
   * it, or the status `status`) and, where `user` is given, whose e-mail starts with `user`; null where no row does.
   * Texts are tested once each, then the rows on their numbers. Cached: an open list repeats its search every 30 s.
   */
  matching(term: string | null, status: number | null, user: string | null): number[] | null {
    const key = `${term ?? ''}\u0000${status ?? ''}\u0000${user ?? ''}`;
    this.found ??= new Cache({ max: SEARCHES_CACHED, ttlMs: SEARCHES_TTL_MS });
    const cached = this.found.peek(key);
    if (cached) return cached.places;
    const termTexts = term === null ? null : this.textsStartingWith(term);
    const userTexts = user === null ? null : this.textsStartingWith(user);
    let found: number[] | null = null;
    const possible =
      (user === null || userTexts !== null) && (term === null || termTexts !== null || (status !== null && this.hasStatus(status)));
    if (possible) {
      const { r } = this;
      const marked = (marks: Uint8Array | null, text: number) => text !== NONE && marks !== null && marks[text] === 1;
      for (let place = 0, at = 0; place < this.length; place++, at += FIELDS) {
        if (user !== null && !marked(userTexts, r[at + 7])) continue;
        const hit =
          term === null ||
          r[at + 3] === status ||
          marked(termTexts, r[at + 2]) ||
          marked(termTexts, r[at + 1]) ||
          marked(termTexts, r[at + 8]) ||
          marked(termTexts, r[at + 7]);
        if (!hit) continue;
        (found ??= []).push(place);
      }
    }
    this.found.set(key, { places: found });
    return found;
  }

  hasStatus(status: number): boolean {
    if (!this.statuses) {
      this.statuses = new Set();
      for (let at = 3; at < this.r.length; at += FIELDS) this.statuses.add(this.r[at]);
    }
    return this.statuses.has(status);
  }

  row(place: number): AccessLogRow {
    const { r, s } = this;
    const at = place * FIELDS;
    const text = (index: number) => (index === NONE ? null : s[index]);
    return {
      id: this.id * SEGMENT_ID_STRIDE + place,
      method: s[r[at]],
      route: s[r[at + 1]],
      path: s[r[at + 2]],
      status: r[at + 3],
      duration_ms: r[at + 4],
      bytes_out: r[at + 5],
      user_id: r[at + 6] === NONE ? null : r[at + 6],
      user_email: text(r[at + 7]),
      ip_address: text(r[at + 8]),
      user_agent: text(r[at + 9]),
      created_at: new Date(this.t + r[at + 10]),
    };
  }
}

/** The rows of a stored segment, in the order they were stored, with their ids. */
export function decodeSegment(id: number, body: string): AccessLogRow[] {
  const segment = new SegmentRows(id, body);
  return Array.from({ length: segment.length }, (_, place) => segment.row(place));
}
