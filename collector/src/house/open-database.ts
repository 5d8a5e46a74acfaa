// The collector's database, ready to serve: connected (db/connect.ts), every family's indexes made
// and the release upgrade run. The collector and the command-line tools open it the same way.
import type { Config } from '../config.ts';
import { connectDatabase, type ConnectOptions, type DatabaseHandle } from '../db/connect.ts';
import { allCollections, ensureIndexes } from './all-collections.ts';
import { migrateDatabase } from './migrations.ts';

export function openDatabase(opts: ConnectOptions): Promise<DatabaseHandle> {
  return connectDatabase({
    ...opts,
    prepare: async (db) => {
      const c = allCollections(db);
      await ensureIndexes(c);
      await migrateDatabase(c);
    },
  });
}

/** The connection options of the configuration, the same for the collector and the command-line tools. */
export function databaseOptions(config: Config): ConnectOptions {
  return { mongodbUri: config.mongodbUri, dataDir: config.dataDir, dbName: config.mongodbDb, cacheSize: config.cacheSize, ...(config.dbPort ? { dbPort: config.dbPort } : {}) };
}
