import { Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';

/** Whether this instance is shutting down: /api/health then responds 503 'draining', so balancers stop sending. */
@Injectable()
export class DrainState {
  private startedAt: Date | null = null;

  get draining(): boolean {
    return this.startedAt !== null;
  }

  start(): void {
    this.startedAt ??= new Date();
  }

  /** While draining, a response asks the client to reconnect (to another instance) instead of keeping this connection. */
  closeIfDraining(response: ServerResponse): void {
    if (this.draining) response.setHeader('Connection', 'close');
  }
}
