import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Items a loop of writes handles between two turns of the event loop for other requests: on SQLite each write runs
 * synchronously, and a batch of hundreds written in one go holds the loop for all of them.
 */
const ITEMS_PER_TURN = 50;

/** Gives other requests a turn after every ITEMS_PER_TURN items of a loop (`index`: the item's place in it). */
export async function turnAfter(index: number): Promise<void> {
  if (index % ITEMS_PER_TURN === ITEMS_PER_TURN - 1) await nextTurn();
}
