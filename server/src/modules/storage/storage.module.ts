import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { FileStorage } from './file-storage';
import { LocalDiskStorage } from './local-disk.storage';
import { S3Storage } from './s3.storage';

/** File storage behind one interface: the local disk under STORAGE_DIR (DATA_DIR/storage) by default, or an S3 bucket. */
@Global()
@Module({
  providers: [
    {
      provide: FileStorage,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const storage = config.storage.s3 ? new S3Storage(config.storage.s3) : new LocalDiskStorage(config.storage.dir);
        await storage.init();
        return storage;
      },
    },
  ],
  exports: [FileStorage],
})
export class StorageModule {}
