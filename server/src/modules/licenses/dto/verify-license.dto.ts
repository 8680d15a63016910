import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class VerifyLicenseDto {
  @IsString({ message: 'license_key is required' })
  @IsNotEmpty({ message: 'license_key is required' })
  @MaxLength(64)
  license_key: string;
}
