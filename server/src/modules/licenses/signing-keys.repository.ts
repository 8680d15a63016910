import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { isUniqueViolation } from '../../database/driver-errors';
import { managerOf, type Transaction } from '../../database/transaction-manager';
import { SigningKeyEntity } from './signing-key.entity';

export type NewSigningKey = Pick<SigningKeyEntity, 'kid' | 'public_key_pem' | 'private_key_sealed'>;

/** The signing_keys table: every key the portal has signed with, newest (highest id) first where listed. */
@Injectable()
export class SigningKeysRepository {
  constructor(@InjectRepository(SigningKeyEntity) private readonly keys: Repository<SigningKeyEntity>) {}

  /** Keys not removed, newest first: the first one signs. */
  live(): Promise<SigningKeyEntity[]> {
    return this.keys.find({ where: { removed_at: IsNull() }, order: { id: 'DESC' } });
  }

  /** Whether any key was ever stored (removed ones too). */
  async any(): Promise<boolean> {
    return (await this.keys.count()) > 0;
  }

  findByKid(kid: string): Promise<SigningKeyEntity | null> {
    return this.keys.findOneBy({ kid });
  }

  /** Stores a key; false when a key with this kid is already stored (another instance imported it first). */
  async insert(key: NewSigningKey, transaction?: Transaction): Promise<boolean> {
    try {
      await (transaction ? managerOf(transaction).getRepository(SigningKeyEntity) : this.keys).insert(key);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Every live key that still signs no longer does: its private half is dropped. */
  async retireAll(at: Date, transaction: Transaction): Promise<void> {
    await managerOf(transaction)
      .getRepository(SigningKeyEntity)
      .update({ removed_at: IsNull(), retired_at: IsNull() }, { retired_at: at, private_key_sealed: null });
  }

  /** Removes a key that a newer live key has replaced (never the current one, whatever ran meanwhile); whether it did. */
  async remove(kid: string, at: Date): Promise<boolean> {
    const { affected } = await this.keys
      .createQueryBuilder()
      .update(SigningKeyEntity)
      .set({ removed_at: at, private_key_sealed: null })
      // The derived table lets MySQL read the table it updates.
      .where(
        'kid = :kid AND removed_at IS NULL AND id < (SELECT newest FROM (SELECT MAX(id) AS newest FROM signing_keys WHERE removed_at IS NULL) AS live)',
        { kid },
      )
      .execute();
    return !!affected;
  }
}
