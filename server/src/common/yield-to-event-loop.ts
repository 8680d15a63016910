import { setImmediate } from 'node:timers/promises';

/** Items a loop of writes handles before it lets other requests run: on SQLite each write holds the event loop. */
const ITEMS_PER_YIELD = 50;

/** Lets other requests run after every ITEMS_PER_YIELD items of a loop (`index`: the item's place in it). */
export async function yieldToEventLoop(index: number): Promise<void> {
  if (index % ITEMS_PER_YIELD === ITEMS_PER_YIELD - 1) await setImmediate();
}
