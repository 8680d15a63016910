import { Logger } from '@nestjs/common';

/**
 * Work that runs after the response has gone (a mail whose sending must not show in the response's timing). A
 * failure is logged, never thrown at the caller; `drain()` waits for what is still running, before the process exits.
 */
export class AfterResponse {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(what: string, task: () => Promise<unknown>): void {
    const done: Promise<void> = Promise.resolve()
      .then(task)
      .then(
        () => undefined,
        (error: Error) => this.logger.error(`${what} failed: ${error.message}`),
      )
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  async drain(): Promise<void> {
    await Promise.all([...this.running]);
  }
}
