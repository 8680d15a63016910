import { Injectable } from '@nestjs/common';
import { DataSource, EntitySubscriberInterface, InsertEvent, RemoveEvent, UpdateEvent } from 'typeorm';

const CATALOG_TABLES = new Set(['versions', 'distribution_files']);

/**
 * Counts this process's writes to versions and distribution files (TypeORM's insert, update and delete events, also
 * of query builders), so the client's catalog can be kept until one of them changes. Download counters (raised by
 * plain SQL) are not counted: the catalog's kept copy is refreshed after a few seconds anyway.
 */
@Injectable()
export class CatalogChanges implements EntitySubscriberInterface {
  generation = 0;

  constructor(dataSource: DataSource) {
    dataSource.subscribers.push(this);
  }

  afterInsert(event: InsertEvent<unknown>): void {
    this.count(event.metadata.tableName);
  }

  afterUpdate(event: UpdateEvent<unknown>): void {
    this.count(event.metadata.tableName);
  }

  afterRemove(event: RemoveEvent<unknown>): void {
    this.count(event.metadata.tableName);
  }

  private count(table: string): void {
    if (CATALOG_TABLES.has(table)) this.generation++;
  }
}
