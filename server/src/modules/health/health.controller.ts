import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../../common/public.decorator';
import { DrainState } from './drain-state.service';
import { HealthDto } from './health.dto';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly drain: DrainState,
  ) {}

  /** Liveness and database check for load balancers and monitors: 503 when the database is down or this instance is draining. */
  @Public()
  @Get()
  async getHealth(@Res({ passthrough: true }) response: Response): Promise<HealthDto> {
    let up = false;
    try {
      await this.dataSource.query('SELECT 1');
      up = true;
    } catch {
      response.status(HttpStatus.SERVICE_UNAVAILABLE);
    }
    if (this.drain.draining) response.status(HttpStatus.SERVICE_UNAVAILABLE);
    return {
      status: this.drain.draining ? 'draining' : up ? 'ok' : 'error',
      database: up ? 'up' : 'down',
      database_type: this.dataSource.options.type === 'better-sqlite3' ? 'sqlite' : this.dataSource.options.type,
      uptime_seconds: Math.round(process.uptime()),
      time: new Date().toISOString(),
    };
  }
}
