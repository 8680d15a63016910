import { Reflector } from '@nestjs/core';
import { REQUIRED_ROLE } from '../../common/admin-only.decorator';
import { IS_PUBLIC } from '../../common/public.decorator';
import { SessionsService } from '../auth/sessions.service';
import { DownloadFastPath } from './download-fast-path';
import { DownloadsController } from './downloads.controller';
import { DownloadsService } from './downloads.service';

describe('DownloadFastPath', () => {
  // Only its start-up check runs here: it reads the route's declaration, nothing else.
  const fastPath = () => new DownloadFastPath({} as SessionsService, {} as DownloadsService, new Reflector());
  const handler = DownloadsController.prototype.downloadFile;

  it('starts while the download route admits any signed-in user, as the fast path does', () => {
    expect(() => fastPath().onModuleInit()).not.toThrow();
  });

  it.each([
    [REQUIRED_ROLE, 'admin'],
    [IS_PUBLIC, true],
  ])('refuses to start once the route declares %s', (key, value) => {
    Reflect.defineMetadata(key, value, handler);
    try {
      expect(() => fastPath().onModuleInit()).toThrow(/update DownloadFastPath/);
    } finally {
      Reflect.deleteMetadata(key, handler);
    }
  });
});
