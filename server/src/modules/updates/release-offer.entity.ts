import { Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, ReferenceColumn } from '../../database/columns';
import { DeviceEntity } from '../devices/device.entity';
import { VersionEntity } from '../versions/version.entity';

/** A release the update API offered a server: once per release and server, so a rollout shows how far it reached. */
@Entity('release_offers')
@Index('UQ_release_offers_version_id_device_id', ['version_id', 'device_id'], { unique: true })
export class ReleaseOfferEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @ReferenceColumn(() => VersionEntity, 'FK_release_offers_version_id', 'CASCADE')
  version_id: number;

  @ReferenceColumn(() => DeviceEntity, 'FK_release_offers_device_id', 'CASCADE', 'IDX_release_offers_device_id')
  device_id: number;

  /** When it was first offered. */
  @DateTimeColumn()
  offered_at: Date;
}
