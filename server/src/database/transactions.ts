import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Transaction, wrapManager } from './transaction-manager';

export type { Transaction } from './transaction-manager';

/** Runs work in one transaction: every repository call given the Transaction commits or rolls back together. */
@Injectable()
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(wrapManager(manager)));
  }
}
