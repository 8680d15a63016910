import { Global, Module } from '@nestjs/common';
import { DrainState } from './drain-state.service';
import { HealthController } from './health.controller';

/** /api/health for balancers and monitors, and the drain state a graceful shutdown sets. */
@Global()
@Module({ controllers: [HealthController], providers: [DrainState], exports: [DrainState] })
export class HealthModule {}
