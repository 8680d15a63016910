import { Injectable } from '@nestjs/common';

/** Whether this instance is shutting down: /api/health then answers 503 'draining', so balancers stop sending. */
@Injectable()
export class DrainState {
  private startedAt: Date | null = null;

  get draining(): boolean {
    return this.startedAt !== null;
  }

  start(): void {
    this.startedAt ??= new Date();
  }
}
