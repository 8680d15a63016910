import { Body, Controller, Delete, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminOnly } from '../../common/admin-only.decorator';
import { Audit } from '../../common/audit.decorator';
import { ApiEnvelopeResponse, ApiGetResponse, pageOf, Reply, withMessage } from '../../common/response';
import { sendExport } from '../../common/streamed-export';
import {
  ClearLogsDto,
  ClearLogsResponseDto,
  ClearLogsResultDto,
  ExportLogsQueryDto,
  LogEntryDto,
  LogListResponseDto,
  LogsQueryDto,
  SystemLogsDto,
  SystemLogsQueryDto,
  SystemLogsResponseDto,
} from './dto/logs.dto';
import { EXPORT_COLUMNS } from './log-export';
import { LogsService } from './logs.service';

/** System Logs: the audit trail (local), the activation API (remote), access and download logs. */
@ApiTags('logs')
@AdminOnly()
@Controller('admin/logs')
export class LogsController {
  constructor(private readonly logs: LogsService) {}

  /** Local and remote entries (`data.local_logs`, `data.remote_logs`), merged in time order; `source` asks for one part. */
  @ApiGetResponse(SystemLogsResponseDto, 'system')
  async listSystemLogs(@Query() query: SystemLogsQueryDto): Promise<Reply<SystemLogsDto>> {
    const { data, meta } = await this.logs.system(query, query.source);
    return new Reply({ data, meta });
  }

  /** One entry per API request: method, route and path, status, duration, bytes, user, address. */
  @ApiGetResponse(LogListResponseDto, 'access')
  async listAccessLogs(@Query() query: LogsQueryDto): Promise<Reply<LogEntryDto[]>> {
    const { entries, meta } = await this.logs.accessLogs(query);
    return pageOf(entries, meta);
  }

  /** One entry per download of a distribution file. */
  @ApiGetResponse(LogListResponseDto, 'downloads')
  async listDownloadLogs(@Query() query: LogsQueryDto): Promise<Reply<LogEntryDto[]>> {
    const { entries, meta } = await this.logs.downloadLogs(query);
    return pageOf(entries, meta);
  }

  /** Empties one log (system: its remote part). The audit trail keeps who did it, and is never cleared itself. */
  @Delete()
  @Audit('logs.clear', 'Clear logs', 'logs')
  @ApiEnvelopeResponse(ClearLogsResponseDto)
  async clearLogs(@Body() dto: ClearLogsDto): Promise<Reply<ClearLogsResultDto>> {
    const cleared = await this.logs.clear(dto.type);
    return withMessage(`Cleared: ${cleared.join(', ')} logs`, { type: dto.type, cleared });
  }

  /** The entries of one log (filters as in the lists) as `{type}_logs_{date}.json` or `.csv`, streamed, oldest first. */
  @Get('export')
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ description: '{type}_logs_{date}.json or .csv', schema: { type: 'string' } })
  @Audit('logs.export', 'Export logs', 'logs')
  async exportLogs(@Query() query: ExportLogsQueryDto, @Res() response: Response): Promise<void> {
    const { batches, writer } = this.logs.export(query.type, query);
    await sendExport(response, {
      name: `${query.type}_logs_${new Date().toISOString().slice(0, 10)}`,
      format: query.format ?? 'json',
      columns: EXPORT_COLUMNS,
      batches,
      csvLine: writer.csvLine,
      jsonText: writer.jsonText,
    });
  }
}
