import { IntFrom, OptionalOneOf, OptionalTrimmedText } from '../../../common/fields';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, Min } from 'class-validator';
import { ListQueryDto } from '../../../common/list-query.dto';
import { FILE_NAME_MAX } from '../../storage/file-names';
import { Architecture, ARCHITECTURES, OS_TYPES, OsType } from '../distribution-file.entity';

export const VERSION_ID_REQUIRED = 'Version is required';
export const OS_TYPE_REQUIRED = 'Operating system is required';
export const ARCHITECTURE_REQUIRED = 'Architecture is required';

/** Upload Distribution File (multipart/form-data). */
export class UploadDistributionFileDto {
  @Type(() => Number)
  @Min(1, { message: VERSION_ID_REQUIRED })
  @IsInt({ message: VERSION_ID_REQUIRED })
  @IsNotEmpty({ message: VERSION_ID_REQUIRED })
  version_id: number;

  @ApiProperty({ enum: OS_TYPES, enumName: 'OsType' })
  @IsIn(OS_TYPES, { message: `Operating system must be one of ${OS_TYPES.join(', ')}` })
  @IsNotEmpty({ message: OS_TYPE_REQUIRED })
  os_type: OsType;

  @ApiProperty({ enum: ARCHITECTURES, enumName: 'Architecture' })
  @IsIn(ARCHITECTURES, { message: `Architecture must be one of ${ARCHITECTURES.join(', ')}` })
  @IsNotEmpty({ message: ARCHITECTURE_REQUIRED })
  architecture: Architecture;

  /** Custom File Name: leave empty to use the original name. Must end in an allowed extension. */
  @OptionalTrimmedText(FILE_NAME_MAX, { message: `File name must be at most ${FILE_NAME_MAX} characters` })
  file_name?: string;

  /** .exe, .dmg, .pkg, .tar.gz, .zip, .deb or .rpm */
  @ApiProperty({ type: 'string', format: 'binary' })
  @IsOptional()
  file: unknown;
}

export const FILE_SORT_KEYS = ['created_at', 'file_name', 'file_size', 'download_count', 'os_type', 'version'] as const;
export type FileSortKey = (typeof FILE_SORT_KEYS)[number];

/** `search` looks in file_name and version; default sort created_at desc, 25 per page. */
export class ListDistributionFilesQueryDto extends ListQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IntFrom(1)
  version_id?: number;

  @OptionalOneOf(OS_TYPES, { enumName: 'OsType' })
  os_type?: OsType;

  @OptionalOneOf(ARCHITECTURES, { enumName: 'Architecture' })
  architecture?: Architecture;

  @OptionalOneOf(FILE_SORT_KEYS, { default: 'created_at' })
  sort?: FileSortKey;
}
