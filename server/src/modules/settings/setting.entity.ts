import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** One settings group (test_license, pricing, ...) stored as JSON text, so groups can grow without migrations. */
@Entity('settings')
export class SettingEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key: string;

  @Column({ type: 'text' })
  value: string;

  @UpdateDateColumn()
  updated_at: Date;
}
