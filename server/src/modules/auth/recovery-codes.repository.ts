import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { managerOf, type Transaction } from '../../database/transaction-manager';
import { RecoveryCodeEntity } from './recovery-code.entity';

/** The mfa_recovery_codes table: each admin's single-use recovery codes, by their hash. */
@Injectable()
export class RecoveryCodesRepository {
  constructor(@InjectRepository(RecoveryCodeEntity) private readonly codes: Repository<RecoveryCodeEntity>) {}

  countUnused(userId: number): Promise<number> {
    return this.codes.countBy({ user_id: userId, used_at: IsNull() });
  }

  /** Marks the unused code of this hash used; whether there was one. */
  async spend(userId: number, codeHash: string): Promise<boolean> {
    const { affected } = await this.codes.update({ user_id: userId, code_hash: codeHash, used_at: IsNull() }, { used_at: new Date() });
    return !!affected;
  }

  /** The user's codes become these (by hash), in `transaction`. */
  async replace(transaction: Transaction, userId: number, codeHashes: string[]): Promise<void> {
    const manager = managerOf(transaction);
    await manager.delete(RecoveryCodeEntity, { user_id: userId });
    const rows = codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null }));
    await manager.insert(RecoveryCodeEntity, rows);
  }

  async deleteAll(transaction: Transaction, userId: number): Promise<void> {
    await managerOf(transaction).delete(RecoveryCodeEntity, { user_id: userId });
  }
}
