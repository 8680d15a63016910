import { ApiProperty } from '@nestjs/swagger';

export class HealthDto {
  /** 'ok' when the database answers, otherwise 'error' (with HTTP 503). */
  @ApiProperty({ enum: ['ok', 'error'] })
  status: 'ok' | 'error';
  @ApiProperty({ enum: ['up', 'down'] })
  database: 'up' | 'down';
  /** 'sqlite', 'mysql' or 'mariadb'. */
  database_type: string;
  uptime_seconds: number;
  time: string;
}
