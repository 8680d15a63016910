import { applyDecorators, Body, Controller, Get, HttpCode, Post, Req, Res, Type } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common/public.decorator';
import { ApiEnvelopeResponse } from '../../common/response';
import {
  ActivationRequestDto,
  ActivationResponseDto,
  DeactivationRequestDto,
  PublicKeyDto,
  PublicKeyResponseDto,
  PublicKeysDto,
  PublicKeysResponseDto,
} from './dto/activation.dto';
import { parseActivationRequest } from './activation-request';
import { LicenseServerAction, LicenseServerService } from './license-server.service';
import { TEST_SCRIPT_FOLDER, TestScriptArchive } from './test-script-archive';

const ipOf = (request: Request) => request.ip ?? null;

/** An activation API route: always 200 with a signed body, whatever the code says. */
const ActivationRoute = (path: LicenseServerAction, body: Type<unknown>) =>
  applyDecorators(Post(path), HttpCode(200), ApiBody({ type: body }), ApiOkResponse({ type: ActivationResponseDto }));

/** How to check a signature offline, in any language: the exact bytes the portal signs (see canonical-json.ts). */
export const SIGNED_BYTES = [
  'Signatures are Ed25519 (RFC 8032) over canonical JSON as RFC 8785 (JCS) defines it, in UTF-8: object members sorted by',
  'key (all keys are ASCII), no whitespace, strings escaped as JSON.stringify does (only `"`, `\\` and control',
  'characters; everything else as raw UTF-8), numbers are integers in plain decimal, and booleans and null as literals.',
  'license.key: the lines between `-----BEGIN STREAMHUB LICENSE-----` and `-----END STREAMHUB LICENSE-----` are the',
  'base64 (64-character lines) of the canonical payload `{expires_at, is_trial, issued_at, kid, license_key,',
  'max_activations, product, user, v}`; the SIGNATURE block is the base64 of the 64-byte signature over exactly those',
  'payload bytes. Activation answers: `data.signature` is the base64 signature over the canonical JSON of `data`',
  'without its `signature` member (nested `device` and `license` objects sorted alike). Release manifests',
  '(GET /api/releases/{version}/manifest): `signature` is over the canonical JSON of `manifest`. `key_id`/`kid` name',
  'the key: the first 16 hex digits of the SHA-256 of its DER SubjectPublicKeyInfo; GET /api/license-server/public-keys',
  'lists the current and previous keys.',
].join(' ');

/** Writes a signed response as it is: no ETag or freshness check for a body that is never the same twice. */
export function sendSignedResponse(response: Response, body: string): void {
  response.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  response.end(body);
}

/**
 * The activation API for streaming servers (no session: the license key is the credential). Every response is
 * HTTP 200 with a machine-readable `code` and an Ed25519 signature over the rest; malformed requests get 400.
 * Bodies are checked by parseActivationRequest (same rules as the DTOs, which document them) to keep the heartbeat cheap.
 * Calls to the exact paths are served by ActivationFastPath before the router; these handlers document the
 * routes and serve the other spellings (a query string) the same way.
 */
@ApiTags('license-server')
@Controller('license-server')
@Public()
export class LicenseServerController {
  constructor(
    private readonly server: LicenseServerService,
    private readonly archive: TestScriptArchive,
  ) {}

  /** Activates this server (server_uid) on a license; the same server again takes no new seat. Codes: VALID, EXPIRED, REVOKED, PENDING, TOO_MANY_DEVICES, NOT_FOUND. */
  @ActivationRoute('activate', ActivationRequestDto)
  async activateServer(@Body() body: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    await this.respond('activate', body, request, response);
  }

  /** Heartbeat: VALID while the license is usable and this server holds a seat (else EXPIRED, REVOKED, PENDING, NOT_ACTIVATED, NOT_FOUND). */
  @ActivationRoute('validate', ActivationRequestDto)
  async validateServer(@Body() body: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    await this.respond('validate', body, request, response);
  }

  /** Gives this server's seat back (code DEACTIVATED, or NOT_ACTIVATED / NOT_FOUND). */
  @ActivationRoute('deactivate', DeactivationRequestDto)
  async deactivateServer(@Body() body: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    await this.respond('deactivate', body, request, response);
  }

  private async respond(action: LicenseServerAction, body: unknown, request: Request, response: Response): Promise<void> {
    const signed = await this.server.handle(action, parseActivationRequest(body, action !== 'deactivate'), ipOf(request));
    sendSignedResponse(response, signed.body);
  }

  /** The Ed25519 public key that signs now (license.key files, activation answers, release manifests). */
  @Get('public-key')
  @ApiOperation({ description: SIGNED_BYTES })
  @ApiEnvelopeResponse(PublicKeyResponseDto)
  getLicensePublicKey(): Promise<PublicKeyDto> {
    return this.server.publicKey();
  }

  /** The current and previous Ed25519 keys, newest first: verify a signature with the key its `kid` names. */
  @Get('public-keys')
  @ApiOperation({ description: SIGNED_BYTES })
  @ApiEnvelopeResponse(PublicKeysResponseDto)
  listLicensePublicKeys(): Promise<PublicKeysDto> {
    return this.server.publicKeys();
  }

  /** The test-script archive: a Node script that activates a license, validates on an interval and prints what the portal says. */
  @Get('test-script.tar.gz')
  @ApiProduces('application/gzip')
  @ApiOkResponse({ description: `${TEST_SCRIPT_FOLDER}.tar.gz`, schema: { type: 'string', format: 'binary' } })
  downloadTestScript(@Res() response: Response): void {
    const archive = this.archive.get();
    response.setHeader('Content-Type', 'application/gzip');
    response.setHeader('Content-Disposition', `attachment; filename="${TEST_SCRIPT_FOLDER}.tar.gz"`);
    response.setHeader('Content-Length', String(archive.length));
    response.setHeader('Cache-Control', 'public, max-age=300');
    response.end(archive);
  }
}
