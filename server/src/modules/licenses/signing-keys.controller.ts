import { Controller, Delete, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/admin-only.decorator';
import { Audit } from '../../common/audit.decorator';
import { MessageResponseDto } from '../../common/message-response.dto';
import { ApiEnvelopeResponse, ApiGetResponse, Reply, withMessage } from '../../common/response';
import { SigningKeyDto, SigningKeyListResponseDto, SigningKeyParamDto, SigningKeyResponseDto } from './dto/signing-key.dto';
import { LicenseSigningService } from './license-signing.service';

/** The Ed25519 keys that sign license files, activation answers and release manifests: list, rotate, remove. */
@ApiTags('signing-keys')
@AdminOnly()
@Controller('admin/signing-keys')
export class SigningKeysController {
  constructor(private readonly signing: LicenseSigningService) {}

  /** The current key and the previous ones that still verify, newest first. */
  @ApiGetResponse(SigningKeyListResponseDto)
  listSigningKeys(): Promise<SigningKeyDto[]> {
    return this.signing.list();
  }

  /** A new key signs from now on (every instance within seconds); the previous keys still verify until removed. */
  @Post('rotate')
  @Audit('signing_key.rotate', 'Rotate signing key')
  @ApiEnvelopeResponse(SigningKeyResponseDto, { status: 201 })
  async rotateSigningKey(): Promise<Reply<SigningKeyDto>> {
    return withMessage('A new signing key signs from now on', await this.signing.rotate());
  }

  /** Removes a previous key: what it signed no longer verifies. The current key cannot be removed (409). */
  @Delete(':kid')
  @Audit('signing_key.remove', 'Remove signing key')
  @ApiEnvelopeResponse(MessageResponseDto, { message: 'Signing key removed' })
  async removeSigningKey(@Param() params: SigningKeyParamDto): Promise<void> {
    await this.signing.remove(params.kid);
  }
}
