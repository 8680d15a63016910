import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { managerOf, type Transaction } from '../../database/transaction-manager';
import { UserMfaEntity } from './user-mfa.entity';

/** The user_mfa table: each admin's authenticator, pending until confirmed. */
@Injectable()
export class UserMfaRepository {
  constructor(@InjectRepository(UserMfaEntity) private readonly authenticators: Repository<UserMfaEntity>) {}

  find(userId: number): Promise<UserMfaEntity | null> {
    return this.authenticators.findOneBy({ user_id: userId });
  }

  /** A new pending authenticator with this (sealed) secret, in place of the user's pending one. */
  async savePending(userId: number, sealedSecret: string): Promise<void> {
    await this.authenticators.upsert({ user_id: userId, secret: sealedSecret, enabled_at: null, last_used_step: null }, ['user_id']);
  }

  /** Turns the pending authenticator on in `transaction`, its code of `step` taken; false when it was not pending. */
  async enable(transaction: Transaction, userId: number, step: number): Promise<boolean> {
    const { affected } = await managerOf(transaction).update(
      UserMfaEntity,
      { user_id: userId, enabled_at: IsNull() },
      { enabled_at: new Date(), last_used_step: step },
    );
    return !!affected;
  }

  /** Takes the code of `step`, only when it comes after the last one taken; whether it did. */
  async takeStep(userId: number, step: number): Promise<boolean> {
    const { affected } = await this.authenticators
      .createQueryBuilder()
      .update(UserMfaEntity)
      .set({ last_used_step: step })
      .where('user_id = :id AND (last_used_step IS NULL OR last_used_step < :step)', { id: userId, step })
      .execute();
    return !!affected;
  }

  async delete(transaction: Transaction, userId: number): Promise<void> {
    await managerOf(transaction).delete(UserMfaEntity, { user_id: userId });
  }
}
