// Config -> a connected database with its indexes: MONGODB_URI when given, otherwise the embedded SecantusDB.
import { MongoClient, type Db } from 'mongodb';
import { collections, ensureIndexes } from './collections.ts';
import { startEmbeddedDatabase } from './embedded.ts';

export interface DatabaseHandle {
  db: Db;
  client: MongoClient;
  /** Its connection string (the embedded server's, or MONGODB_URI): other processes connect with it. */
  uri: string;
  /** Where it is, without credentials, for the start banner. */
  description: string;
  close(): Promise<void>;
}

export async function connectDatabase(opts: { mongodbUri?: string; dataDir: string; dbName: string; cacheSize?: string }): Promise<DatabaseHandle> {
  const embedded = opts.mongodbUri ? undefined : await startEmbeddedDatabase(opts.dataDir, { cacheSize: opts.cacheSize });
  const uri = opts.mongodbUri ?? embedded!.uri;
  // Command monitoring feeds the database latency metric (metrics/metrics.ts).
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000, monitorCommands: true });
  try {
    await client.connect();
    await ensureIndexes(collections(client.db(opts.dbName)));
  } catch (err) {
    await client.close();
    await embedded?.stop();
    throw err;
  }
  const where = embedded ? `embedded SecantusDB at ${uri} (data in ${opts.dataDir})` : `MongoDB at ${redactUri(uri)}`;
  return {
    db: client.db(opts.dbName),
    client,
    uri,
    description: `${where}, database ${opts.dbName}`,
    async close() {
      await client.close();
      await embedded?.stop();
    },
  };
}

function redactUri(uri: string): string {
  return uri.replace(/\/\/[^@/]*@/, '//***@');
}
