import type { EntityManager } from 'typeorm';

/**
 * A database transaction in progress, as a service hands it to the repositories that write in it (Transactions.run).
 * Opaque on purpose: only repositories open it (managerOf), so SQL stays in repositories.
 */
export interface Transaction {
  readonly kind: 'transaction';
}

const managers = new WeakMap<Transaction, EntityManager>();

/** Wraps a TypeORM transaction's manager as the Transaction services pass on. */
export function wrapManager(manager: EntityManager): Transaction {
  const transaction: Transaction = Object.freeze({ kind: 'transaction' as const });
  managers.set(transaction, manager);
  return transaction;
}

/** The manager of a transaction: for repositories, which write in it. */
export function managerOf(transaction: Transaction): EntityManager {
  const manager = managers.get(transaction);
  if (!manager) throw new Error('Not a transaction of Transactions.run');
  return manager;
}
