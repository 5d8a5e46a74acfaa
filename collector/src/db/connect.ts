// Config -> a connected database with its indexes: MONGODB_URI when given, otherwise the embedded SecantusDB.
import { MongoClient, type Db } from 'mongodb';
import type { Logger } from '../logger.ts';
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

export interface ConnectOptions {
  mongodbUri?: string;
  dataDir: string;
  dbName: string;
  cacheSize?: string;
  /** The collector's: a database that has not answered one operation of a request for this long
   * fails it (the driver's socketTimeoutMS; its own timeoutMS is deprecated and has no effect), so a
   * stalled database answers a failure instead of holding requests. Unset: no bound (the CLI tools). */
  operationTimeoutMs?: number;
  /** Told when the embedded database dies and is started again. */
  log?: Logger;
  /** The embedded database's port (DB_PORT); unset: any free one. */
  dbPort?: number;
  /** The command-line tools: connect to the embedded database a running collector owns on this data
   * directory (embedded.ts) instead of refusing to start a second one. */
  shareRunning?: boolean;
  /** Run once connected, before anything serves (every family's indexes, the release upgrade): db/
   * knows no family, so the caller brings it (house/open-database.ts). */
  prepare?: (db: Db) => Promise<void>;
}

/** How long the driver looks for a server that does not answer before an operation fails. */
const SERVER_SELECTION_MS = 5000;

export async function connectDatabase(opts: ConnectOptions): Promise<DatabaseHandle> {
  const embedded = opts.mongodbUri
    ? undefined
    : await startEmbeddedDatabase(opts.dataDir, { cacheSize: opts.cacheSize, ...(opts.log ? { log: opts.log } : {}), ...(opts.dbPort ? { port: opts.dbPort } : {}), shareRunning: opts.shareRunning ?? false });
  const uri = opts.mongodbUri ?? embedded!.uri;
  // Command monitoring feeds the database latency metric (metrics/metrics.ts).
  const bounded = opts.operationTimeoutMs ? { socketTimeoutMS: opts.operationTimeoutMs, connectTimeoutMS: opts.operationTimeoutMs } : {};
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: Math.min(SERVER_SELECTION_MS, opts.operationTimeoutMs ?? SERVER_SELECTION_MS), monitorCommands: true, ...bounded });
  try {
    await client.connect();
    // Building an index on a large collection takes what it takes: not on the bounded connections.
    const builder = opts.operationTimeoutMs ? await new MongoClient(uri, { serverSelectionTimeoutMS: SERVER_SELECTION_MS }).connect() : client;
    try {
      await opts.prepare?.(builder.db(opts.dbName));
    } finally {
      if (builder !== client) await builder.close();
    }
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
