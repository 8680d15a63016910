import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/public.decorator';
import { DrainState } from './drain-state.service';
import { HealthRepository } from './health.repository';
import { HealthDto } from './health.dto';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: HealthRepository,
    private readonly drain: DrainState,
  ) {}

  /** Liveness and database check for load balancers and monitors: 503 when the database is down or this instance is draining. */
  @Public()
  @Get()
  async getHealth(@Res({ passthrough: true }) response: Response): Promise<HealthDto> {
    const up = await this.database.reachable();
    if (!up || this.drain.draining) response.status(HttpStatus.SERVICE_UNAVAILABLE);
    return {
      status: this.drain.draining ? 'draining' : up ? 'ok' : 'error',
      database: up ? 'up' : 'down',
      database_type: this.database.engine,
      uptime_seconds: Math.round(process.uptime()),
      time: new Date().toISOString(),
    };
  }
}
