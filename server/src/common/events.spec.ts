import { Injectable } from '@nestjs/common';
import { EventEmitter2, EventEmitterModule } from '@nestjs/event-emitter';
import { Test } from '@nestjs/testing';
import {
  emitAwaited,
  LICENSE_CHANGED,
  LICENSE_REVOKED,
  type LicenseChangedEvent,
  type LicenseRevokedEvent,
  notify,
  OnAwaitedEvent,
  OnNotification,
  VERSION_DELETING,
} from './events';

@Injectable()
class Listener {
  readonly changed: number[] = [];

  @OnAwaitedEvent(LICENSE_REVOKED)
  async revoked({ licenseId }: LicenseRevokedEvent): Promise<number> {
    if (licenseId < 0) throw new Error('cannot deactivate');
    return licenseId * 2;
  }

  @OnNotification(LICENSE_CHANGED)
  async changedLicense({ licenseId }: LicenseChangedEvent): Promise<void> {
    this.changed.push(licenseId);
    throw new Error('a failing notification listener is only logged');
  }
}

describe('events between modules', () => {
  let emitter: EventEmitter2;
  let listener: Listener;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [EventEmitterModule.forRoot()], providers: [Listener] })
      .setLogger({ log: () => {}, error: () => {}, warn: () => {} })
      .compile();
    await moduleRef.init();
    emitter = moduleRef.get(EventEmitter2);
    listener = moduleRef.get(Listener);
  });

  it("returns each listener's answer to an awaited event", async () => {
    await expect(emitAwaited(emitter, LICENSE_REVOKED, { licenseId: 21 })).resolves.toEqual([42]);
  });

  it("fails the emitter when an awaited event's listener fails", async () => {
    await expect(emitAwaited(emitter, LICENSE_REVOKED, { licenseId: -1 })).rejects.toThrow('cannot deactivate');
  });

  it('refuses an awaited event that no listener handles, instead of silently skipping its work', async () => {
    await expect(emitAwaited(emitter, VERSION_DELETING, { versionId: 1 })).rejects.toThrow(
      'No listener handled the awaited event version.deleting',
    );
  });

  it('tells notification listeners without waiting for them or failing on their errors', async () => {
    expect(() => notify(emitter, LICENSE_CHANGED, { licenseId: 7 })).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(listener.changed).toEqual([7]);
  });
});
