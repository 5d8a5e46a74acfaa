// A collector for the benchmarks: the embedded SecantusDB (or MONGODB_URI), a fresh database seeded
// with `fixture`, the app on a free loopback port.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import { MongoClient, type Db } from 'mongodb';
import { createApp, type AppOptions } from '../../collector/src/app.ts';
import { fixtureSchema } from '../../collector/src/cli/fixture.ts';
import { seedFixture } from '../../collector/src/cli/seed-service.ts';
import { allCollections, ensureIndexes, type AllCollections } from '../../collector/src/house/all-collections.ts';
import { publishedDatabase, startEmbeddedDatabase } from '../../collector/src/db/embedded.ts';
import { createLogger } from '../../collector/src/logger.ts';

export interface BenchCollector {
  base: string;
  /** The database server's connection string: another process (a collector of its own) may use it. */
  uri: string;
  /** Monitors its commands (`commandStarted`), for counting round trips. */
  client: MongoClient;
  db: Db;
  c: AllCollections;
  app: Koa;
  /** The embedded database's process, when it is the embedded one. */
  databasePid: number | null;
  /** Listens once the caller has added its own routes. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export const databaseLabel = () => (process.env.MONGODB_URI ? 'MONGODB_URI' : 'embedded SecantusDB');

export async function startBenchCollector(fixture: unknown, label: string, appOptions: Partial<AppOptions> = {}): Promise<BenchCollector> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-bench-'));
  const embedded = process.env.MONGODB_URI ? undefined : await startEmbeddedDatabase(dataDir);
  const uri = process.env.MONGODB_URI ?? embedded!.uri;
  const client = await new MongoClient(uri, { monitorCommands: true }).connect();
  const db = client.db(`bench_${label}_${Date.now()}`);
  const c = allCollections(db);
  await ensureIndexes(c);
  await seedFixture(c, fixtureSchema.parse(fixture));
  // The benchmarks drive the browser doors far faster than any visitor: no rate limit.
  const { app, stop } = createApp({ db, log: createLogger('silent'), browserLimits: { perIp: 1e9, perVisit: 1e9 }, ...appOptions });
  let server: Server | undefined;
  const bench: BenchCollector = {
    base: '',
    uri,
    client,
    db,
    c,
    app,
    databasePid: embedded ? publishedDatabase(dataDir)!.pid : null,
    async listen() {
      server = app.listen(0, '127.0.0.1');
      await new Promise((r) => server!.once('listening', r));
      bench.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return bench.base;
    },
    async close() {
      server?.closeAllConnections();
      server?.close();
      await stop();
      await db.dropDatabase();
      await client.close();
      await embedded?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return bench;
}

/** `npm start`'s collector in a process of its own on the bench's database (MONGODB_URI), as a user
 * runs it: the requests timed from this process do not share its event loop. */
export function startCollectorProcess(bench: BenchCollector): Promise<{ base: string; stop(): Promise<void> }> {
  const env = { ...process.env, MONGODB_URI: bench.uri, MONGODB_DB: bench.db.databaseName, PORT: '0', LOG_LEVEL: 'warn', DEMO: 'false', DEMO_HISTORY_DAYS: '0' };
  const child = spawn(process.execPath, ['--import', 'tsx', 'collector/src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const base = /collector on (http:\/\/\S+)/.exec(out)?.[1];
      if (base && out.includes('Back end:')) {
        resolve({
          base,
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the collector exited with ${code}:\n${out}`)));
  });
}
