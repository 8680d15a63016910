import { Injectable } from '@nestjs/common';
import { Cache } from '../../common/cache';
import { ListTotals } from '../../common/list-totals';
import type { Page, PageRequest } from '../../common/pagination';
import { VersionEntity } from './version.entity';
import { type PublishedRelease, type VersionChoice, VersionsRepository } from './versions.repository';

export type { PublishedRelease, VersionChoice } from './versions.repository';
export { offeredTo, type Rollout } from './rollout';

/** How long the client catalog is served from the cache (another instance's version writes show within it). */
const CATALOG_TTL_MS = 5_000;
/** Catalog pages, and lists of numbers, cached at most. */
const CATALOG_CACHED = 64;

/**
 * Versions as clients are offered them: the catalog's pages, the version numbers that name products, and the
 * choices of selects. Every customer's dashboard and purchase dialog reads them, and they change only when an admin
 * or a sync writes a version: cached briefly, and cleared by those writes (`changed`).
 */
@Injectable()
export class VersionCatalogService {
  /** The catalog's total (published versions), counted once per write rather than on every page. */
  private readonly totals = new ListTotals(60_000, 64, CATALOG_TTL_MS);
  private readonly pages = new Cache<Page<VersionEntity>>({ max: CATALOG_CACHED, ttlMs: CATALOG_TTL_MS });
  private readonly numberLists = new Cache<string[]>({ max: CATALOG_CACHED, ttlMs: CATALOG_TTL_MS });
  private readonly releaseList = new Cache<PublishedRelease[]>({ max: 1, ttlMs: CATALOG_TTL_MS });

  constructor(private readonly versions: VersionsRepository) {}

  /** One page of the client catalog: published versions, newest semantic version first. */
  clientPage(request: Pick<PageRequest, 'page' | 'limit'>, defaultLimit: number): Promise<Page<VersionEntity>> {
    return this.pages.get(`${request.page ?? 1} ${request.limit ?? defaultLimit}`, () =>
      this.versions.catalogPage(request, defaultLimit, this.totals),
    );
  }

  /** Published version numbers, newest semantic version first: all, or the first `limit`. */
  numbers(limit?: number): Promise<string[]> {
    return this.numberLists.get(String(limit ?? 'all'), () => this.versions.numbers(limit));
  }

  /** Every published release, newest semantic version first: what validate's update advice reads on every heartbeat. */
  releases(): Promise<PublishedRelease[]> {
    return this.releaseList.get('', () => this.versions.publishedReleases());
  }

  /** Whether a version with exactly this number exists (letter case too). */
  hasNumber(number: string): Promise<boolean> {
    return this.versions.hasNumber(number);
  }

  /** The published version with exactly this number (letter case too), or null for a draft, a yanked or an unknown one. */
  async published(number: string): Promise<VersionEntity | null> {
    const [found] = await this.versions.findByNumbers([number]);
    return found?.version === number && found.state === 'published' ? found : null;
  }

  /** Every version as a choice (no changelog or keys), latest first, then by release date: selects and license products. */
  all(): Promise<VersionChoice[]> {
    return this.versions.choices();
  }

  /** A version was written (or a write failed part way): the catalog is read anew. */
  changed(): void {
    this.pages.clear();
    this.numberLists.clear();
    this.releaseList.clear();
    this.totals.clear();
  }
}
