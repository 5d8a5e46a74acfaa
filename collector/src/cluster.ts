// WORKERS=N: this process starts the database (the embedded one, or connects to MONGODB_URI),
// loads the demo into an empty one (DEMO), then forks N collector processes that share its port
// (each accepts its connections from the shared socket). They reach the database through
// MONGODB_URI; everything they must agree on (pool, ids, rate limits, outbox) is in it. A process
// that dies is replaced; SIGTERM or SIGINT drains them all, then stops the database.
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.ts';
import { databaseOptions, openDatabase } from './house/open-database.ts';
import { allCollections } from './house/all-collections.ts';
import type { Logger } from './logger.ts';
import { engineOf } from './transcripts/engine-settings.ts';
import { allowDemoOrigins, demoOrigins, printBanner, seedDemoIfEmpty, startDemoHistory } from './start-banner.ts';

// The kernel hands each connection to a process (SCHED_NONE), not this one (Node's round robin, its
// default on Linux): a connection the primary had handed to a worker that died that moment stayed
// open in the primary, unanswered until its client gave up (10 s in the tests, one a kill, issue
// 79), and every connection waited on the primary's event loop. Accepted from the shared socket by
// whichever process is ready, one a dying process had not taken is taken by another. Measured by
// `npm run bench` (worker-kill.ts, processes.ts); NODE_CLUSTER_SCHED_POLICY=rr brings the round robin back.
if (!process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;

export async function runPrimary(config: Config, log: Logger): Promise<void> {
  const database = await openDatabase({ ...databaseOptions(config), operationTimeoutMs: config.operationTimeoutMs, log });
  const c = allCollections(database.db);
  const demoSeeded = config.demo && (await seedDemoIfEmpty(c, log));
  // The bundled engine runs once, beside this process; the collector processes reach it on loopback.
  const engine = config.transcribe?.url === 'local' ? await engineOf(config.transcribe, (line) => log.info(line)) : null;
  let stopping = false;
  const fork = (): Worker => {
    const worker = cluster.fork({ MONGODB_URI: config.mongodbUri ?? database.uri, ...(engine ? { TRANSCRIBE_URL: engine.settings.url, TRANSCRIBE_MODEL: engine.settings.model } : {}) });
    worker.on('message', (m: { listening?: number }) => m.listening && log.info({ pid: worker.process.pid }, 'a collector process is serving'));
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      log.error({ pid: worker.process.pid, code, signal }, 'a collector process died: starting another');
      fork();
    });
    return worker;
  };
  const workers = Array.from({ length: config.workers }, fork);
  const port = await new Promise<number>((resolve) => workers[0]!.on('message', (m: { listening?: number }) => m.listening && resolve(m.listening)));
  if (config.demo) await allowDemoOrigins(c, demoOrigins(config.host, port, config.publicUrl), log);
  await printBanner(c, config, `http://${config.host}:${port}`, database.description, config.workers);
  if (demoSeeded) startDemoHistory(c, config.demoHistoryDays, log);

  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping the collector processes');
    await Promise.all(
      Object.values(cluster.workers ?? {}).map(
        (w) =>
          new Promise<void>((resolve) => {
            if (!w || w.isDead()) return resolve();
            w.once('exit', () => resolve());
            // A signal, not a message: a worker still starting (one just forked in place of a dead
            // one) has no message handler yet and would never hear a message, while SIGTERM either
            // drains it (once main.ts handles it) or ends it before it has taken any request.
            w.process.kill('SIGTERM');
          }),
      ),
    );
    await engine?.stop();
    await database.close();
    log.info('stopped');
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown(signal));
}
