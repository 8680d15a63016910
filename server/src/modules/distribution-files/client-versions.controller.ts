import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { VersionsService } from '../versions/versions.service';
import { DistributionFileEntity } from './distribution-file.entity';
import { ClientVersionDto, ClientVersionListResponseDto, toClientVersionDto } from './dto/distribution-file.dto';
import { DistributionFilesService } from './distribution-files.service';
import { CatalogChanges } from './catalog-changes';

/**
 * The catalog's answer as sent: its JSON, the same compressed (brotli and gzip, made once per catalog in the thread
 * pool instead of per request on the event loop: it is megabytes at size), and an ETag over it (a dashboard that has
 * it gets 304).
 */
interface Catalog {
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

function send(request: Request, response: Response, catalog: Catalog): void {
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('ETag', catalog.etag);
  response.setHeader('Vary', 'Accept-Encoding');
  if (request.fresh) {
    response.status(304).end();
    return;
  }
  // A Content-Encoding set here tells the API's compressor the answer is already compressed.
  const encoding = request.acceptsEncodings('br', 'gzip', 'identity');
  if (encoding === 'br' || encoding === 'gzip') {
    response.setHeader('Content-Encoding', encoding);
    response.send(catalog[encoding]);
    return;
  }
  response.send(catalog.body);
}

/** How long the kept catalog may be served (download counters change without an event). */
const CATALOG_FRESH_MS = 5000;

/** The client dashboard's Available Downloads: every version with its files. Keys and internals never appear here. */
@ApiTags('downloads')
@Controller()
export class ClientVersionsController {
  constructor(
    private readonly versions: VersionsService,
    private readonly files: DistributionFilesService,
    private readonly changes: CatalogChanges,
  ) {}

  /**
   * The catalog as last read, while nothing in it changed here and for at most CATALOG_FRESH_MS: every customer's
   * dashboard asks for all versions with all their files, thousands of rows each time otherwise.
   */
  private kept: { generation: number; at: number; catalog: Promise<Catalog> } | null = null;

  /** Versions with their distribution files, latest first then newest release (any signed-in user). */
  @Get('versions')
  @ApiOkResponse({ type: ClientVersionListResponseDto })
  async listVersions(@Req() request: Request, @Res() response: Response): Promise<void> {
    send(request, response, await this.clientVersions());
  }

  /** The same list as GET /api/versions, under the client's path. */
  @Get('client/versions')
  @ApiOkResponse({ type: ClientVersionListResponseDto })
  async listClientVersions(@Req() request: Request, @Res() response: Response): Promise<void> {
    send(request, response, await this.clientVersions());
  }

  /** The catalog's answer, serialized once for every customer who asks while it is kept (it is the same for all). */
  private clientVersions(): Promise<Catalog> {
    const { generation } = this.changes;
    if (this.kept && this.kept.generation === generation && Date.now() - this.kept.at < CATALOG_FRESH_MS) return this.kept.catalog;
    const catalog = this.readCatalog();
    this.kept = { generation, at: Date.now(), catalog };
    catalog.catch(() => (this.kept = null));
    return catalog;
  }

  private async readCatalog(): Promise<Catalog> {
    const answer: ClientVersionListResponseDto = { success: true, data: await this.readVersions() };
    const body = Buffer.from(JSON.stringify(answer));
    const [br, gzip] = await Promise.all([
      brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      gzipped(body, { level: 6 }),
    ]);
    return { body, br, gzip, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
  }

  private async readVersions(): Promise<ClientVersionDto[]> {
    const versions = await this.versions.all();
    const byVersion = new Map<number, DistributionFileEntity[]>();
    for (const file of await this.files.forVersions(versions.map((version) => version.id))) {
      byVersion.set(file.version_id, [...(byVersion.get(file.version_id) ?? []), file]);
    }
    return versions.map((version) => toClientVersionDto(version, byVersion.get(version.id) ?? []));
  }
}
