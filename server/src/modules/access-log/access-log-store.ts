import type { Cache } from '../../common/cache';
import type { AccessLogRow } from './access-log.entity';
import { COUNT_CAP, ESTIMATE_MARGIN, windowSize } from './access-log.constants';
import {
  AccessLogFilters,
  AccessLogPage,
  AccessLogQuery,
  afterTermEntries,
  Candidate,
  countMatches,
  countPastCap,
  eachMatch,
  FEW_VALUES,
  leastMatches,
  parsedKey,
  SegmentHead,
  STATUS_PROBE_ENTRIES,
  TERM_ENTRIES_READS,
  TermTally,
} from './access-log-query';
import { AccessLogRepository } from './access-log.repository';
import { SegmentRows } from './access-log-segments';
import { AccessLogTermsRepository } from './access-log-terms.repository';

/*
 * The access log's storage engine.
 *
 * Why: every API request writes an access row (a streaming server's heartbeat as much as an admin's page), and the
 * rows are read rarely (the System Logs screen, an export). A table row per request would cost the database a row
 * and its index entries each time; a segment costs a small share of one row and the few terms its values add. The
 * gain is write CPU; reads pay with a planner of their own, this one.
 *
 * A segment (access_log_segments; encoding in access-log-segments.ts) is a batch of rows the writer stored at once
 * (up to SEGMENT_MAX_ROWS rows and SEGMENT_MAX_BYTES bytes): its rows in a compact JSON body, and a head a list
 * reads without opening it (time span, row count, 5xx and 4xx counts). A row's id is its segment's id ×
 * SEGMENT_ID_STRIDE + its place. The writer (access-log-writer.ts) appends a quiet portal's few rows to its last
 * segment while that holds fewer than OPEN_BELOW rows, so segments stay large.
 *
 * The term index (access_log_terms; access-log-terms.repository.ts) holds each distinct searchable value of a
 * segment once (path, route, address, e-mail, status; lower-cased, behind a letter for its kind: `p/api/me`,
 * `s404`), with how many of the segment's rows have it (all, 5xx, 4xx). A term points to segments; their rows are
 * then tested one by one.
 *
 * How a list is planned (the choices in access-log-query.ts, the reads here):
 * - Without a search, heads in the list's order give the page's segments and the count (exact from the heads where
 *   a date filter does not cut through a segment); only segments whose rows are shown or tested are opened.
 * - A search first looks through the newest rows passing the filters (windowSize of them): a common term fills its
 *   page there, and its total is estimated from its share when that is far past COUNT_CAP.
 * - A rarer term is looked up in the index, a few hundred entries, then more, up to TERM_ENTRIES_MAX. A term with
 *   more entries is common: the segments are walked in order instead, passing by unread those without it where it
 *   is a status or a few values (ranges of the index).
 * - Counting stops past COUNT_CAP; a count past it is cached for its filters, and parsed segments are cached too
 *   (an open screen asks every 30 s). Within one request each head and body is read once.
 */

/** What one request has read (a page and its count read the same heads, and may open the same segments). */
interface Reads {
  /** Segments opened, parsed (null: gone since their head was read). */
  bodies: Map<number, Promise<SegmentRows | null>>;
  /** Reads of heads and of the index, by what was asked. */
  heads: Map<string, Promise<unknown>>;
  /** Each segment is read once (an export): it is let go once handed out, so memory stays flat. */
  once?: boolean;
}
const newReads = (once = false): Reads => ({ bodies: new Map(), heads: new Map(), once });

/** `read()`, once per request (`reads`) for the same `key`. */
function readOnce<T>(reads: Reads | undefined, key: string, read: () => Promise<T>): Promise<T> {
  if (!reads || reads.once) return read();
  const known = reads.heads.get(key) as Promise<T> | undefined;
  if (known) return known;
  const reading = read();
  reads.heads.set(key, reading);
  return reading;
}

/** The segments a list reads, in its order, a read of heads at a time; `atLeast`: matching rows known before the walk. */
type Segments = (() => AsyncIterable<Candidate[]>) & { atLeast?: number };

/** Of the segments from `first` to `last`, those holding the term (see AccessLogTermsRepository.holding). */
type Holding = (first: number, last: number) => Promise<Set<number>>;

/** Segment heads read at a time, walking a log: few first (a first page and its count need a few), then more. */
const FIRST_HEADS = 32;
const HEADS_PER_READ = 256;
/** Segments whose rows are read in one statement at most (1, then 2, 4 and 8 as a walk goes on). */
const BODIES_PER_READ = 8;
const EXPORT_BATCH = 1_000;

/** The caches the service holds for the store: parsed segments by parsedKey, counts past COUNT_CAP by countKey. */
export interface AccessLogCaches {
  parsed: Cache<SegmentRows>;
  counts: Cache<number>;
}

/** Reads the access log (see the top of this file): a page of rows and its count, or every matching row for an export. */
export class AccessLogStore {
  constructor(
    private readonly segments: AccessLogRepository,
    private readonly terms: AccessLogTermsRepository,
    private readonly caches: AccessLogCaches,
  ) {}

  async page(filters: AccessLogFilters): Promise<AccessLogPage> {
    const page = filters.page ?? 1;
    const limit = filters.limit ?? 25;
    const offset = (page - 1) * limit;
    const query = new AccessLogQuery(filters);
    const result = (rows: AccessLogRow[], counted: number): AccessLogPage => ({
      rows,
      total: Math.min(counted, COUNT_CAP),
      capped: counted > COUNT_CAP,
      page,
      limit,
    });

    const reads = newReads();
    const countKey = query.countKey();
    const knownCapped = (this.caches.counts.peek(countKey) ?? 0) > COUNT_CAP;
    const counting = (count: () => Promise<number>) => countPastCap(this.caches.counts, countKey, count);
    if (!query.searching) {
      const [rows, counted] = await Promise.all([
        this.collect(this.walk(query, reads), query, offset, limit, reads),
        counting(() => this.countUpTo(this.walk(query, reads), query, COUNT_CAP + 1, reads)),
      ]);
      return result(rows, counted);
    }

    // 1. The newest entries passing the filters, each tested: a common term fills its page here.
    const need = offset + limit;
    const window = await this.window(query, windowSize(need), need, reads);
    if (window.complete) return result(window.matches.slice(offset, need), window.hits);
    if (window.hits >= need) {
      const rows = window.matches.slice(offset, need);
      const counted = await counting(async () => {
        // With no filter but the search, the total is estimated from the term's share of the window.
        const bound = Math.ceil((ESTIMATE_MARGIN * COUNT_CAP * window.read) / window.hits);
        if (query.unfiltered && (await this.countUpTo(this.walk(query, reads), query, bound + 1, reads, true)) > bound)
          return COUNT_CAP + 1;
        return this.countUpTo(await this.matching(query, reads), query, COUNT_CAP + 1, reads);
      });
      return result(rows, counted);
    }

    // 2. A rarer term: the segments its terms point to.
    const segments = await this.matching(query, reads, knownCapped);
    const [rows, counted] = await Promise.all([
      this.collect(segments, query, offset, limit, reads),
      counting(() => this.countUpTo(segments, query, COUNT_CAP + 1, reads)),
    ]);
    return result(rows, counted);
  }

  /** Every matching row, oldest first, in batches (for exports): one segment's rows in memory at a time. */
  async *batches(filters: AccessLogFilters): AsyncGenerator<AccessLogRow[]> {
    const query = new AccessLogQuery({ ...filters, order: 'asc' });
    const reads = newReads(true);
    const segments = query.searching ? await this.matching(query, reads) : this.walk(query, reads);
    let batch: AccessLogRow[] = [];
    for await (const segment of this.opened(segments, () => true, reads)) {
      eachMatch(segment, query.rowTests(segment), false, (place) => {
        batch.push(segment.row(place));
        return false;
      });
      if (batch.length >= EXPORT_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  /**
   * Every segment passing the date and level filters, in the list's order, a read of heads at a time, with its
   * count of matching rows where the head tells it; `holding`: which of them hold the term (the others hold none).
   */
  private walk(query: AccessLogQuery, reads?: Reads, holding?: Holding): Segments {
    const filter = query.segmentFilter();
    const repository = this.segments;
    return async function* () {
      let last: number | null = null;
      for (let size = FIRST_HEADS; ; size = HEADS_PER_READ) {
        const after: number | null = last;
        const heads: SegmentHead[] = await readOnce(reads, `heads\0${JSON.stringify([filter, query.descending, after, size])}`, () =>
          repository.heads(filter, query.descending, after, size),
        );
        if (heads.length) {
          const ids = heads.map((head) => head.id);
          const held = holding ? await holding(Math.min(...ids), Math.max(...ids)) : null;
          yield heads.map((head) => query.candidate(head, held));
          last = heads[heads.length - 1].id;
        }
        if (heads.length < size) return;
      }
    };
  }

  /**
   * The segments the search's and the user filter's terms point to (those both point to when both are given),
   * that pass the date and level filters, in the list's order. A common term (see afterTermEntries) is found by a
   * walk through every segment passing the filters instead, its rows tested.
   */
  private async matching(query: AccessLogQuery, reads?: Reads, knownCapped = false): Promise<Segments> {
    let found: TermTally | null = null;
    const lookups = query.lookups();
    const countable = query.countable(lookups);
    for (const lookup of lookups) {
      // A status search: whether a path, route, address or e-mail starts with its digits too, and its rows in the
      // newest segments holding it (not summed where its count is known to be past the cap).
      const status = lookup.exact.length
        ? await this.terms.statusProbe(lookup, query.filters.level ?? null, {
            sum: !(knownCapped && countable),
            newestEntries: STATUS_PROBE_ENTRIES,
            otherwise: COUNT_CAP + 1,
          })
        : null;
      // Of the segments walked, those with the status, read as ranges of the terms' index (where no prefix has
      // entries: a range of values allows no such read). A status found in every segment may be missing from long
      // stretches of the newest ones (a busy portal's validate calls, all with status 200): those are skipped unread.
      const holding = status && !status.prefixed ? this.holding(lookup.exact, reads) : undefined;
      if (holding && countable && status && status.newest > COUNT_CAP) {
        // Its newest segments alone hold more matches than a list counts: its rows are found by walking them.
        const walk: Segments = this.walk(query, reads, holding);
        walk.atLeast = status.newest;
        return walk;
      }
      // More entries each time, while those read already hold fewer matches than a list counts.
      let tally: TermTally = new Map();
      for (const limit of TERM_ENTRIES_READS) {
        const entries = await this.terms.entries(lookup, limit);
        tally = query.tally(lookup, entries, found);
        const least = entries.length > limit && countable ? leastMatches(tally) : null;
        const next = afterTermEntries(entries.length, limit, least);
        if (next === 'segments') break;
        if (next === 'walk') {
          // A common term: when it is a few values found in many segments (a path every admin calls), the walk passes
          // by the segments without them unread: a busy portal's newest segments may hold none (its heartbeats).
          const few = holding ? null : await this.terms.fewValues(lookup, FEW_VALUES);
          const walk: Segments = this.walk(query, reads, few ? this.holding(few, reads) : holding);
          walk.atLeast = least ?? undefined;
          return walk;
        }
      }
      found = tally;
    }
    const tally = found!;
    const ids = [...tally.keys()].sort((a, b) => (query.descending ? b - a : a - b));
    const filter = query.segmentFilter();
    const repository = this.segments;
    return async function* () {
      for (let start = 0; start < ids.length; start += HEADS_PER_READ) {
        const part = ids.slice(start, start + HEADS_PER_READ);
        const heads: SegmentHead[] = await readOnce(reads, `of\0${JSON.stringify([part, filter, query.descending])}`, () =>
          repository.headsOf(part, filter, query.descending),
        );
        yield heads.map((head) => query.termCandidate(head, tally.get(head.id)!));
      }
    };
  }

  /** Of the segments from `first` to `last`, those holding one of `values` (a status, or a common term's few values). */
  private holding(values: string[], reads: Reads | undefined): Holding {
    return (first, last) =>
      readOnce(reads, `holding\0${JSON.stringify([values, first, last])}`, () => this.terms.holding(values, first, last));
  }

  /**
   * The newest (or oldest) rows passing the filters, up to `size` of them read, each tested for the search: the
   * first `need` matches, how many rows were read and matched, and whether that was every row passing the filters.
   */
  private async window(query: AccessLogQuery, size: number, need: number, reads: Reads) {
    const matches: AccessLogRow[] = [];
    let read = 0;
    let hits = 0;
    for await (const segment of this.opened(this.walk(query, reads), () => true, reads)) {
      const tests = query.rowTests(segment);
      read += countMatches(segment, { ...tests, matched: null });
      hits += countMatches(segment, tests);
      if (matches.length < need) eachMatch(segment, tests, query.descending, (place) => matches.push(segment.row(place)) === need);
      if (read >= size) return { matches, read, hits, complete: false };
    }
    return { matches, read, hits, complete: true };
  }

  /** The page's rows: `offset` matching rows skipped (whole segments where their count is known), `limit` taken. */
  private async collect(segments: Segments, query: AccessLogQuery, offset: number, limit: number, reads: Reads): Promise<AccessLogRow[]> {
    let skip = offset;
    const rows: AccessLogRow[] = [];
    const skipped = (candidate: Candidate) => {
      if (candidate.exact === null || candidate.exact > skip) return false;
      skip -= candidate.exact;
      return true;
    };
    for await (const segment of this.opened(segments, (candidate) => !skipped(candidate), reads)) {
      const tests = query.rowTests(segment);
      // Without a date or level filter, a segment's matches are skipped at once.
      if (!tests.filtered && tests.matched && skip >= tests.matched.length) {
        skip -= tests.matched.length;
        continue;
      }
      eachMatch(segment, tests, query.descending, (place) => {
        if (skip) {
          skip--;
          return false;
        }
        return rows.push(segment.row(place)) === limit;
      });
      if (rows.length === limit) return rows;
    }
    return rows;
  }

  /**
   * Matching rows, counted up to `limit` (then the count says more): from the heads where they tell, else by
   * testing the segment's rows. `wholeRows` counts every row of each segment instead (a bound, from heads alone).
   */
  private async countUpTo(segments: Segments, query: AccessLogQuery, limit: number, reads: Reads, wholeRows = false): Promise<number> {
    // First from what the heads and terms tell at least (a path and its route match the same rows: neither count
    // is exact, but either may reach the limit), before opening any segment.
    if ((segments.atLeast ?? 0) >= limit) return segments.atLeast!;
    let least = 0;
    for await (const chunk of segments()) {
      for (const candidate of chunk) least += wholeRows ? candidate.head.row_count : candidate.atLeast;
      if (least >= limit) return least;
      if (!least) break;
    }
    if (wholeRows) return least;
    let counted = 0;
    const known = (candidate: Candidate) => {
      if (candidate.exact === null) return false;
      counted += candidate.exact;
      return true;
    };
    const open = (candidate: Candidate) => (counted >= limit ? 'stop' : !known(candidate));
    for await (const segment of this.opened(segments, open, reads)) {
      counted += countMatches(segment, query.rowTests(segment));
      if (counted >= limit) return counted;
    }
    return counted;
  }

  /**
   * The segments `open` says to open (it sees each in order, none with no match, and may account for the others
   * itself; 'stop' ends the walk), read and parsed. Their rows are read 1, 2, 4 then BODIES_PER_READ segments at a
   * time: a first page needs one, a walk through many reads few statements. `reads` keeps what one request has read.
   */
  private async *opened(segments: Segments, open: (candidate: Candidate) => boolean | 'stop', reads: Reads): AsyncGenerator<SegmentRows> {
    let group = 1;
    for await (const chunk of segments()) {
      const wanted = chunk.filter((candidate) => candidate.exact !== 0);
      for (let i = 0; i < wanted.length;) {
        const opening = open(wanted[i]);
        if (opening === 'stop') return;
        if (!opening) {
          i++;
          continue;
        }
        // This one and the next few: those `open` has not seen yet are opened too (asking it would account for them).
        const part = wanted.slice(i, i + group);
        i += part.length;
        group = Math.min(group * 2, BODIES_PER_READ);
        this.read(
          part.map((candidate) => candidate.head),
          reads,
        );
        for (const { head } of part) {
          const segment = await reads.bodies.get(head.id)!;
          if (reads.once) reads.bodies.delete(head.id);
          if (segment) yield segment;
        }
      }
    }
  }

  /** Reads the segments not read yet (nor cached parsed), in one statement, into `reads`. */
  private read(heads: SegmentHead[], reads: Reads): void {
    const missing: SegmentHead[] = [];
    for (const head of heads) {
      if (reads.bodies.has(head.id)) continue;
      const cached = this.caches.parsed.peek(parsedKey(head));
      if (cached) reads.bodies.set(head.id, Promise.resolve(cached));
      else missing.push(head);
    }
    if (!missing.length) return;
    const bodies = this.segments.bodies(
      missing.map((head) => head.id),
      reads.once === true,
    );
    for (const head of missing) {
      // null: the segment went since its head was read (pruned or cleared): it has no rows to show.
      const segment = bodies.then((found) => {
        const row = found.find((r) => r.id === head.id);
        if (!row) return null;
        const parsed = new SegmentRows(head.id, row.body);
        // Cached only as its head was read (appended to since, it is another), and not for an export's walk through all.
        if (row.row_count === head.row_count && !reads.once) this.caches.parsed.set(parsedKey(head), parsed);
        return parsed;
      });
      // A request that stops early never awaits the rest: their failure must not go unhandled.
      segment.catch(() => undefined);
      reads.bodies.set(head.id, segment);
    }
  }
}
