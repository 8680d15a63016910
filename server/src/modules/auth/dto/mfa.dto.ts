import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Envelope } from '../../../common/envelope';
import { SecondFactorDto } from './auth.dto';

export class MfaStatusDto {
  /** Two-factor sign-in is on for this admin. */
  enabled: boolean;
  enabled_at: Date | null;
  /** Recovery codes not used yet. */
  recovery_codes_left: number;
  /** ADMIN_REQUIRE_MFA: every admin must have it; one without it sets it up at the next sign-in. */
  required: boolean;
}

export class MfaStatusResponseDto extends Envelope(MfaStatusDto) {}

export class MfaSetupDto {
  /** The secret in base32, to type into the app when the QR code cannot be scanned. Shown this once. */
  secret: string;
  /** The otpauth:// URL the QR code holds. */
  otpauth_url: string;
  /** The QR code as an SVG image in a data: URL. */
  qr_code: string;
}

export class MfaSetupResponseDto extends Envelope(MfaSetupDto) {}

export class RecoveryCodesDto {
  /** Ten single-use recovery codes, shown this once. */
  recovery_codes: string[];
}

export class RecoveryCodesResponseDto extends Envelope(RecoveryCodesDto, { message: 'required' }) {}

/** Setting up an authenticator takes the account's password. */
export class StartMfaSetupDto {
  @IsString({ message: 'Current password is required' })
  @MaxLength(200)
  @IsNotEmpty({ message: 'Current password is required' })
  password: string;
}

/** Turning two-factor sign-in off takes the password and a second factor. */
export class DisableMfaDto extends SecondFactorDto {
  @IsString({ message: 'Current password is required' })
  @MaxLength(200)
  @IsNotEmpty({ message: 'Current password is required' })
  password: string;
}
