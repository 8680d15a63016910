import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { Envelope } from '../../../common/envelope';

export const KID_PATTERN = /^[0-9a-f]{16}$/;

/** A signing key as the admin's Settings list it. */
export class SigningKeyDto {
  /** The key id signed data carries: the first 16 hex digits of the SHA-256 of the public key (SPKI DER). */
  kid: string;
  @ApiProperty({ enum: ['Ed25519'] })
  algorithm: 'Ed25519';
  /** SubjectPublicKeyInfo in PEM. */
  public_key_pem: string;
  /** Whether this key signs now (exactly one does); the others only verify. */
  current: boolean;
  created_at: Date;
  /** When a newer key took over; null for the current key. */
  retired_at: Date | null;
}

export class SigningKeyListResponseDto extends Envelope([SigningKeyDto]) {}
export class SigningKeyResponseDto extends Envelope(SigningKeyDto, { message: 'required' }) {}

export class SigningKeyParamDto {
  /** @example 0123456789abcdef */
  @Matches(KID_PATTERN, { message: 'kid must be 16 lowercase hex digits' })
  kid: string;
}
