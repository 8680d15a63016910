import { Global, Module } from '@nestjs/common';
import { DrainState } from './drain-state.service';
import { HealthController } from './health.controller';
import { HealthRepository } from './health.repository';

/** /api/health for balancers and monitors, and the drain state a graceful shutdown sets. */
@Global()
@Module({ controllers: [HealthController], providers: [DrainState, HealthRepository], exports: [DrainState] })
export class HealthModule {}
