import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { MAX_LENGTH } from '../../../database/column-lengths';

export class VerifyLicenseDto {
  @IsString({ message: 'license_key is required' })
  @IsNotEmpty({ message: 'license_key is required' })
  @MaxLength(MAX_LENGTH.licenseKey)
  license_key: string;
}
