import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { FileStorage } from './file-storage';
import { LocalDiskStorage } from './local-disk.storage';

/** File storage behind one interface; the local disk under STORAGE_DIR (DATA_DIR/storage) by default. */
@Global()
@Module({
  providers: [
    {
      provide: FileStorage,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const storage = new LocalDiskStorage(config.storage.dir);
        await storage.init();
        return storage;
      },
    },
  ],
  exports: [FileStorage],
})
export class StorageModule {}
