import { GUARDS_METADATA, INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { REQUIRED_ROLE } from '../../common/admin-only.decorator';
import { IS_PUBLIC } from '../../common/public.decorator';
import { SessionsService } from '../auth/sessions.service';
import { DrainState } from '../health/drain-state.service';
import { AccessLogService } from '../access-log/access-log.service';
import { ReleaseCoverageService } from '../licenses/release-coverage.service';
import { DownloadFastPath } from './download-fast-path';
import { DownloadsController } from './downloads.controller';
import { DownloadsService } from './downloads.service';

describe('DownloadFastPath', () => {
  // Only its start-up check runs here: it reads the route's declaration, nothing else.
  const fastPath = () =>
    new DownloadFastPath(
      {} as SessionsService,
      {} as DownloadsService,
      new Reflector(),
      {} as DrainState,
      {} as AccessLogService,
      {} as ReleaseCoverageService,
    );
  const handler = DownloadsController.prototype.downloadFile;

  it('starts while the download route admits any signed-in user, as the fast path does', () => {
    expect(() => fastPath().onModuleInit()).not.toThrow();
  });

  it.each([
    [REQUIRED_ROLE, 'admin'],
    [IS_PUBLIC, true],
    [GUARDS_METADATA, [class ThrottleGuard {}]],
    [INTERCEPTORS_METADATA, [class TimingInterceptor {}]],
  ])('refuses to start once the route declares %s', (key, value) => {
    Reflect.defineMetadata(key, value, handler);
    try {
      expect(() => fastPath().onModuleInit()).toThrow(/update DownloadFastPath/);
    } finally {
      Reflect.deleteMetadata(key, handler);
    }
  });
});
