import { ApiProperty } from '@nestjs/swagger';

export class HealthDto {
  /** 'ok' when the database answers; 'error' when it does not and 'draining' while shutting down (both with HTTP 503). */
  @ApiProperty({ enum: ['ok', 'error', 'draining'] })
  status: 'ok' | 'error' | 'draining';
  @ApiProperty({ enum: ['up', 'down'] })
  database: 'up' | 'down';
  /** 'sqlite', 'mysql' or 'mariadb'. */
  database_type: string;
  uptime_seconds: number;
  time: string;
}
