import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common/public.decorator';
import { ActivationRequestDto, ActivationResponseDto, DeactivationRequestDto, PublicKeyResponseDto } from './dto/activation.dto';
import { parseActivationRequest } from './activation-request';
import { LicenseServerService } from './license-server.service';
import { TEST_SCRIPT_FOLDER, TestScriptArchive } from './test-script-archive';

const ipOf = (request: Request) => request.ip ?? null;

/** Writes a signed answer directly: no ETag or freshness check for a body that is never the same twice. */
function sendJson(response: Response, body: ActivationResponseDto): void {
  const text = JSON.stringify(body);
  response.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  response.end(text);
}

/**
 * The activation API for streaming servers (no session: the license key is the credential). Every answer is
 * HTTP 200 with a machine-readable `code` and an Ed25519 signature over the rest; malformed requests get 400.
 * Bodies are checked by parseActivationRequest (same rules as the DTOs, which document them) to keep the heartbeat cheap.
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
  @Post('activate')
  @HttpCode(200)
  @ApiBody({ type: ActivationRequestDto })
  @ApiOkResponse({ type: ActivationResponseDto })
  async activateServer(@Body() body: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    const answer = await this.server.activate(parseActivationRequest(body, true), ipOf(request));
    sendJson(response, { success: answer.valid, data: answer });
  }

  /** Heartbeat: VALID while the license is usable and this server holds a seat (else EXPIRED, REVOKED, PENDING, NOT_ACTIVATED, NOT_FOUND). */
  @Post('validate')
  @HttpCode(200)
  @ApiBody({ type: ActivationRequestDto })
  @ApiOkResponse({ type: ActivationResponseDto })
  async validateServer(@Body() body: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    const answer = await this.server.validate(parseActivationRequest(body, true), ipOf(request));
    sendJson(response, { success: answer.valid, data: answer });
  }

  /** Gives this server's seat back (code DEACTIVATED, or NOT_ACTIVATED / NOT_FOUND). */
  @Post('deactivate')
  @HttpCode(200)
  @ApiBody({ type: DeactivationRequestDto })
  @ApiOkResponse({ type: ActivationResponseDto })
  async deactivateServer(@Body() body: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    const answer = await this.server.deactivate(parseActivationRequest(body, false), ipOf(request));
    sendJson(response, { success: answer.code === 'DEACTIVATED', data: answer });
  }

  /** The Ed25519 public key that verifies license.key files and activation answers. */
  @Get('public-key')
  getLicensePublicKey(): PublicKeyResponseDto {
    return { success: true, data: this.server.publicKey() };
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
