import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** The postings of the users search on MySQL/MariaDB: (trigram, user_id), one row per distinct trigram of a user. */
export const USER_TRIGRAMS_TABLE = 'user_search_trigrams';

/**
 * A term narrows the search through its postings only when its rarest trigram has at most this many users; a
 * commoner term is read in the list's order, where its matches are frequent enough to fill a page soon.
 */
const MAX_CANDIDATES = 2000;
/** The trigrams of a term whose postings are counted (spread over the term); one is enough to narrow it. */
const MAX_PROBES = 8;

type Named = { email: string; first_name: string; last_name: string };

/**
 * Every distinct trigram (3 characters, lower case) of what the users search looks in: the e-mail and the full name.
 * Every part of 3 characters or more of either is made of these, so the users holding all of a term's trigrams
 * include every user the search's `LIKE '%term%'` finds. The migration's backfill and the service use this alike.
 */
export function userTrigrams(user: Named): string[] {
  return trigramsOf(`${user.email} ${user.first_name} ${user.last_name}`);
}

function trigramsOf(text: string): string[] {
  const chars = Array.from(text.toLowerCase());
  const found = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) found.add(chars.slice(i, i + 3).join(''));
  return [...found];
}

/** `INSERT IGNORE` of postings, 1,000 rows a statement (the column's case- and accent-blind collation may merge some). */
export async function insertPostings(manager: EntityManager | DataSource, rows: Array<[string, number]>): Promise<void> {
  for (let start = 0; start < rows.length; start += 1000) {
    const chunk = rows.slice(start, start + 1000);
    await manager.query(
      `INSERT IGNORE INTO ${USER_TRIGRAMS_TABLE} (trigram, user_id) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
      chunk.flat(),
    );
  }
}

/**
 * The users search's trigram postings on MySQL/MariaDB, which have no substring index of their own (FULLTEXT
 * matches words; SQLite uses its FTS5 trigram table instead, maintained by triggers). Rewritten on every change of a
 * user's e-mail or name; a deleted user's postings go with it (foreign key, ON DELETE CASCADE).
 */
@Injectable()
export class UserTrigramsRepository {
  private readonly mysql: boolean;

  constructor(private readonly dataSource: DataSource) {
    this.mysql = dataSource.options.type !== 'better-sqlite3';
  }

  /** Rewrites the user's postings from the stored row, under its row lock, so the last writer's text wins. */
  async rewrite(userId: number): Promise<void> {
    if (!this.mysql) return;
    await this.dataSource.transaction(async (manager) => {
      const [user] = (await manager.query('SELECT email, first_name, last_name FROM users WHERE id = ? FOR UPDATE', [userId])) as Named[];
      await manager.query(`DELETE FROM ${USER_TRIGRAMS_TABLE} WHERE user_id = ?`, [userId]);
      const postings = user ? userTrigrams(user).map((trigram): [string, number] => [trigram, userId]) : [];
      await insertPostings(manager, postings);
    });
  }

  /** Whether the search narrows by these postings (MySQL/MariaDB); SQLite has its FTS5 table instead. */
  get used(): boolean {
    return this.mysql;
  }

  /**
   * The term's rarest trigram when its postings hold at most MAX_CANDIDATES users (each count stops there), else
   * null: then the search reads the users in the list's order. Null on SQLite and for terms under 3 characters.
   * Counting the probes reads up to MAX_PROBES × MAX_CANDIDATES postings: callers cache the choice.
   */
  async rarest(term: string): Promise<string | null> {
    if (!this.mysql) return null;
    const all = trigramsOf(term);
    if (!all.length) return null;
    const step = Math.max(1, Math.floor(all.length / MAX_PROBES));
    const probes = all.filter((_, i) => i % step === 0).slice(0, MAX_PROBES);
    const counts = (await this.dataSource.query(
      probes
        .map(
          (_, i) =>
            `SELECT ${i} AS k, COUNT(*) AS n FROM (SELECT 1 FROM ${USER_TRIGRAMS_TABLE} WHERE trigram = ? LIMIT ${MAX_CANDIDATES + 1}) c${i}`,
        )
        .join(' UNION ALL '),
      probes,
    )) as Array<{ k: number | string; n: number | string }>;
    const best = counts.map((row) => ({ k: Number(row.k), n: Number(row.n) })).sort((a, b) => a.n - b.n)[0];
    return best && best.n <= MAX_CANDIDATES ? probes[best.k] : null;
  }
}
