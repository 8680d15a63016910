import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Items a loop of writes handles between two turns of the event loop for other requests: on SQLite each write runs
 * synchronously, and a batch of 500 licenses or devices written in one go held the loop 70-120 ms.
 */
const ITEMS_PER_TURN = 50;

/** Gives other requests a turn after every ITEMS_PER_TURN items of a loop (`index`: the item's place in it). */
export async function turnAfter(index: number): Promise<void> {
  if (index % ITEMS_PER_TURN === ITEMS_PER_TURN - 1) await nextTurn();
}
