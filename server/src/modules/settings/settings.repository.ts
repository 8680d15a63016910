import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { SettingEntity } from './setting.entity';

/** The settings table: one JSON document per key (a settings group, or the sync state). */
@Injectable()
export class SettingsRepository {
  constructor(@InjectRepository(SettingEntity) private readonly settings: Repository<SettingEntity>) {}

  /** The stored documents of these keys, parsed; a key with no row is missing from the map. */
  async read(keys: string[]): Promise<Map<string, object>> {
    const rows = await this.settings.findBy({ key: In(keys) });
    return new Map(rows.map((row) => [row.key, JSON.parse(row.value) as object]));
  }

  /** The stored document of one key, parsed; null when it has no row. */
  async readOne(key: string): Promise<object | null> {
    const row = await this.settings.findOneBy({ key });
    return row ? (JSON.parse(row.value) as object) : null;
  }

  /** Stores one document, replacing what the key held. */
  async write(key: string, value: object): Promise<void> {
    await this.settings.save({ key, value: JSON.stringify(value) });
  }

  /** Stores several documents in one transaction: all of them or none. */
  async writeAll(documents: Array<[string, object]>): Promise<void> {
    await this.settings.manager.transaction(async (manager) => {
      for (const [key, value] of documents) await manager.save(SettingEntity, { key, value: JSON.stringify(value) });
    });
  }

  /** Stores the documents of the keys that have no row yet; returns those keys. */
  async insertMissing<K extends string>(documents: Array<[K, object]>): Promise<K[]> {
    const existing = new Set((await this.settings.find({ select: { key: true } })).map((row) => row.key));
    const missing = documents.filter(([key]) => !existing.has(key));
    if (missing.length) await this.settings.insert(missing.map(([key, value]) => ({ key, value: JSON.stringify(value) })));
    return missing.map(([key]) => key);
  }
}
