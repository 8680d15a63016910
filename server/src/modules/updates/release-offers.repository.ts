import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ReleaseOfferEntity } from './release-offer.entity';

/** Which servers the update API offered each release. */
@Injectable()
export class ReleaseOffersRepository {
  constructor(@InjectRepository(ReleaseOfferEntity) private readonly offers: Repository<ReleaseOfferEntity>) {}

  /** Records the offer unless it was recorded before (another instance may record the same one: the unique index keeps one). */
  async record(versionId: number, deviceId: number, at: Date): Promise<void> {
    await this.offers
      .createQueryBuilder()
      .insert()
      .values({ version_id: versionId, device_id: deviceId, offered_at: at })
      .orIgnore()
      .execute();
  }

  /** How many servers were offered the release. */
  count(versionId: number): Promise<number> {
    return this.offers.countBy({ version_id: versionId });
  }
}
