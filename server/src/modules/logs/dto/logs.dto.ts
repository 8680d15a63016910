import { OptionalOneOf, OptionalText } from '../../../common/fields';
import { IsDateTime } from '../../../common/dates';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto, PageMetaDto } from '../../../common/list-query.dto';
import { LOG_LEVELS, LogLevel } from '../audit-log.entity';
import { Envelope, PageOf } from '../../../common/envelope';
import { MAX_LENGTH } from '../../../database/column-lengths';

export const LOG_SOURCES = ['local', 'remote', 'access', 'downloads'] as const;
export type LogSourceName = (typeof LOG_SOURCES)[number];
/** What the type selector of System Logs offers: system is local and remote together. */
export const LOG_KINDS = ['system', 'local', 'remote', 'access', 'downloads'] as const;
export type LogKind = (typeof LOG_KINDS)[number];

/** Filters every log list shares (search, level, date range, user), with paging and the direction of created_at. */
export class LogsQueryDto extends ListQueryDto {
  @OptionalOneOf(LOG_LEVELS, { enumName: 'LogLevel' })
  level?: LogLevel;

  /** Entries at or after this time (ISO 8601). */
  @IsOptional()
  @IsDateTime({ message: 'from must be a date and time (ISO 8601)' })
  from?: Date;

  /** Entries at or before this time (ISO 8601). */
  @IsOptional()
  @IsDateTime({ message: 'to must be a date and time (ISO 8601)' })
  to?: Date;

  /** The user's e-mail address, or its beginning. */
  @OptionalText(MAX_LENGTH.email)
  user?: string;
}

export class SystemLogsQueryDto extends LogsQueryDto {
  /** One part only: local (the audit trail) or remote (the activation API and what a license server reported). */
  @ApiProperty({ enum: ['local', 'remote'], required: false })
  @IsOptional()
  @IsIn(['local', 'remote'])
  source?: 'local' | 'remote';
}

export class ExportLogsQueryDto extends LogsQueryDto {
  @ApiProperty({ enum: LOG_KINDS, enumName: 'LogKind' })
  @IsIn(LOG_KINDS, { message: `type must be one of ${LOG_KINDS.join(', ')}` })
  type: LogKind;

  @ApiProperty({ enum: ['json', 'csv'], required: false, default: 'json' })
  @IsOptional()
  @IsIn(['json', 'csv'])
  format?: 'json' | 'csv';
}

export class ClearLogsDto {
  /** system clears the remote part: the audit trail (local) is never cleared, only pruned after its retention. */
  @ApiProperty({ enum: LOG_KINDS, enumName: 'LogKind' })
  @IsIn(LOG_KINDS, { message: `type must be one of ${LOG_KINDS.join(', ')}` })
  type: LogKind;
}

/** What a streaming server reported in a remote entry (the Remote Context box). */
export class RemoteContextDto {
  hostname: string | null;
  product: string | null;
  version: string | null;
  server_uid: string;
  key: string;
  valid: boolean;
  code: string;
  timestamp: Date;
  /** The license server it was pulled from; null for this portal's own activation API. */
  origin: string | null;
}

export class AccessDetailsDto {
  method: string;
  route: string;
  path: string;
  status: number;
  duration_ms: number;
  bytes_out: number;
}

export class DownloadDetailsDto {
  version: string | null;
  os_type: string | null;
  architecture: string | null;
  file_size: number | null;
  /** 'session' or 'link'. */
  via: string;
}

/** One entry of any log, in the one shape the System Logs screen shows. */
export class LogEntryDto {
  id: number;
  @ApiProperty({ enum: LOG_SOURCES, enumName: 'LogSource' })
  source: LogSourceName;
  @ApiProperty({ enum: LOG_LEVELS, enumName: 'LogLevel' })
  level: LogLevel;
  message: string;
  /** `area.verb` for local and remote entries, the method for access entries, 'download' for downloads. */
  action: string;
  user_email: string | null;
  ip_address: string | null;
  user_agent: string | null;
  file_name: string | null;
  created_at: Date;
  target_type: string | null;
  target_id: string | null;
  /** Local entries: what the audit trail kept (HTTP status, the fields sent, counts). */
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  context: Record<string, unknown> | null;
  remote_context: RemoteContextDto | null;
  access: AccessDetailsDto | null;
  download: DownloadDetailsDto | null;
}

export class LogPageMetaDto extends PageMetaDto {
  /** More entries match than were counted (10,000): `total` is a lower bound; for a search of a large log it may be estimated. */
  total_capped: boolean;
}

export class SystemLogsDto {
  local_logs: LogEntryDto[];
  remote_logs: LogEntryDto[];
}

export class SystemLogsResponseDto extends Envelope(SystemLogsDto, { meta: LogPageMetaDto }) {}

export class LogListResponseDto extends PageOf(LogEntryDto, LogPageMetaDto) {}

export class ClearLogsResultDto {
  @ApiProperty({ enum: LOG_KINDS, enumName: 'LogKind' })
  type: LogKind;
  /** The logs that were emptied. */
  @ApiProperty({ enum: LOG_SOURCES, enumName: 'LogSource', isArray: true })
  cleared: LogSourceName[];
}

export class ClearLogsResponseDto extends Envelope(ClearLogsResultDto, { message: 'required' }) {}
