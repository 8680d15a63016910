import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config';
import { APP_LOGGER, appLogger } from './logger';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Provides the validated configuration to every module (nothing else reads process.env), and the logger built from it. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: APP_LOGGER, useValue: appLogger(config) },
      ],
      exports: [APP_CONFIG, APP_LOGGER],
    };
  }
}
