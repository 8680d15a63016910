import { Envelope } from '../../../common/envelope';

/** Whether the signed-in client may take one kind of license now, and if not, why (the refusal they would get). */
export class LicenseOptionDto {
  available: boolean;
  /** The server's refusal message; null when available. */
  reason: string | null;
}

/** What the Get License card offers the signed-in client before any click. */
export class LicenseOptionsDto {
  trial: LicenseOptionDto;
  purchase: LicenseOptionDto;
}

export class LicenseOptionsResponseDto extends Envelope(LicenseOptionsDto) {}
