import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { MAX_LENGTH } from '../../database/column-lengths';

/** One HTTP request to the API (not /api/health, nor the web client's files); a type, so exports take it as a RawRow. */
export type AccessLogRow = {
  /** The segment's id × SEGMENT_ID_STRIDE + the row's place in it (access-log-segments.ts). */
  id: number;
  method: string;
  /** The route's template (`/api/admin/users/:id`), or '-' when no route matched. */
  route: string;
  /** The path as requested, without the query string. */
  path: string;
  status: number;
  duration_ms: number;
  bytes_out: number;
  user_id: number | null;
  user_email: string | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Date;
};

/** A batch of access rows stored as one row, with the head a list reads without opening it (see access-log-store.ts). */
@Entity('access_log_segments')
@Index('IDX_access_log_segments_last_at', ['last_at'])
export class AccessLogSegmentEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'datetime', precision: 3 })
  first_at: Date;

  @Column({ type: 'datetime', precision: 3 })
  last_at: Date;

  @Column({ type: 'int' })
  row_count: number;

  /** Rows with a status of 500 or more. */
  @Column({ type: 'int' })
  errors: number;

  /** Rows with a status from 400 to 499. */
  @Column({ type: 'int' })
  warnings: number;

  /** The rows, as `encodeSegments` writes them (TEXT holds 65,535 bytes on MySQL: see SEGMENT_MAX_BYTES). */
  @Column({ type: 'text' })
  body: string;
}

/**
 * Each distinct searchable value of a segment once (`p/api/me`, `i10.0.0.7`, `s404`), with how many of its rows
 * have it: values repeat across a batch, so a segment holds far fewer terms than rows (see access-log-store.ts).
 */
@Entity('access_log_terms')
// Covering: a search reads a term's segments and counts from the index alone, never the table (bigger than memory).
@Index('IDX_access_log_terms_value_segment_id', ['value', 'segment_id', 'hits', 'errors', 'warnings'])
export class AccessLogTermEntity {
  @PrimaryColumn({ type: 'int' })
  segment_id: number;

  /** The term's place in its segment: the key does not depend on how the database compares text. */
  @PrimaryColumn({ type: 'int' })
  n: number;

  @Column({ type: 'varchar', length: MAX_LENGTH.accessTerm })
  value: string;

  @Column({ type: 'int' })
  hits: number;

  /** Of those rows, the ones with a status of 500 or more (a level filter passes segments by with none). */
  @Column({ type: 'int' })
  errors: number;

  /** Of those rows, the ones with a status from 400 to 499. */
  @Column({ type: 'int' })
  warnings: number;
}
