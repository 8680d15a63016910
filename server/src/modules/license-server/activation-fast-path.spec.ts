import { UseGuards, UseInterceptors } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { AUDIT } from '../../common/audit.decorator';
import { IS_PUBLIC } from '../../common/public.decorator';
import { DrainState } from '../health/drain-state.service';
import { AccessLogService } from '../access-log/access-log.service';
import { ActivationFastPath } from './activation-fast-path';
import { LicenseServerController } from './license-server.controller';
import { LicenseServerService } from './license-server.service';

describe('ActivationFastPath', () => {
  // Only its start-up check runs here: it reads the routes' declarations, nothing else.
  const fastPath = () => new ActivationFastPath({} as LicenseServerService, new Reflector(), {} as DrainState, {} as AccessLogService);
  const handler = LicenseServerController.prototype.validateServer;

  it('starts while the activation routes are public and run nothing of their own', () => {
    expect(() => fastPath().onModuleInit()).not.toThrow();
  });

  it.each([
    ['an audit entry', () => Reflect.defineMetadata(AUDIT, { action: 'x', what: 'X' }, handler)],
    ['a guard', () => UseGuards(class {})(LicenseServerController.prototype, 'validateServer', { value: handler })],
    ['an interceptor', () => UseInterceptors(class {})(LicenseServerController.prototype, 'validateServer', { value: handler })],
    ['a session (no longer public)', () => Reflect.defineMetadata(IS_PUBLIC, false, handler)],
  ])('refuses to start once a route declares %s', (_what, declare) => {
    const saved = Reflect.getMetadataKeys(handler).map((key) => [key, Reflect.getMetadata(key, handler)] as const);
    declare();
    try {
      expect(() => fastPath().onModuleInit()).toThrow(/update ActivationFastPath/);
    } finally {
      for (const key of Reflect.getMetadataKeys(handler)) Reflect.deleteMetadata(key, handler);
      for (const [key, value] of saved) Reflect.defineMetadata(key, value, handler);
    }
  });

  it('leaves the metadata as it found it', () => {
    expect(Reflect.getMetadata(GUARDS_METADATA, handler)).toBeUndefined();
  });
});
