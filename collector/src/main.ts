// Config -> database -> listen; graceful shutdown that drains requests and stops the embedded
// database. With WORKERS=N above 1, this process starts the database and N collector processes
// (node:cluster) that share its port (cluster.ts).
import cluster from 'node:cluster';
import { loadConfigOrExit } from './config.ts';
import { runPrimary } from './cluster.ts';
import { databaseOptions, openDatabase } from './house/open-database.ts';
import { allCollections } from './house/all-collections.ts';
import { createApp } from './app.ts';
import { createHttpServer, listenUrlOf, serve } from './http/server.ts';
import { createLogger } from './logger.ts';
import { engineOf } from './transcripts/engine-settings.ts';
import { allowDemoOrigins, demoOrigins, printBanner, seedDemoIfEmpty, startDemoHistory } from './start-banner.ts';

const config = loadConfigOrExit();
/** How long requests in flight may finish at shutdown, and how long stopping may take after them. */
const DRAIN_MS = 10_000;
const STOP_MS = 5_000;
const log = createLogger(config.logLevel);

if (config.workers > 1 && cluster.isPrimary) {
  await runPrimary(config, log);
} else {
  // A cluster worker reaches the primary's database through MONGODB_URI (cluster.ts sets it).
  const database = await openDatabase({ ...databaseOptions(config), operationTimeoutMs: config.operationTimeoutMs, log });
  const c = allCollections(database.db);
  const demoSeeded = cluster.isPrimary && config.demo && (await seedDemoIfEmpty(c, log));
  // The bundled engine (TRANSCRIBE_URL=local) is installed on first start and runs beside this process.
  const engine = config.transcribe ? await engineOf(config.transcribe, (line) => log.info(line)) : null;

  // Listening first: the app's links, without PUBLIC_URL, name the port it really has (PORT=0 picks one).
  const server = createHttpServer(null, { requestTimeoutMs: config.requestTimeoutMs }).listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const { app, stop } = createApp({
    db: database.db,
    log,
    proxyHops: config.proxyHops,
    browserLimits: config.browserLimits,
    demoPages: config.demo,
    ...(config.telephonyApiKey ? { telephonyApiKey: config.telephonyApiKey } : {}),
    ...(config.softphone ? { softphone: config.softphone } : {}),
    delivery: { publicOnly: !config.allowPrivateWebhooks, transcribeConcurrency: config.transcribe?.concurrency ?? 1 },
    ...(engine ? { transcribe: engine.settings } : {}),
    ...(config.analyze ? { analyze: config.analyze } : {}),
    ga4Endpoint: config.ga4Endpoint,
    signUp: config.signUp,
    ...(config.metricsKey ? { metricsKey: config.metricsKey } : {}),
    domainCacheMs: config.domainCacheMs,
    dataPagesAtOnce: config.dataPagesAtOnce,
    ...(config.mail ? { mail: config.mail } : {}),
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    listenUrl: listenUrlOf(server, config.host),
    twilioApiBase: config.twilioApiBase,
    ...(config.hubspotApiBase ? { hubspotApiBase: config.hubspotApiBase } : {}),
    ...(config.salesforceLoginUrl ? { salesforceLoginUrl: config.salesforceLoginUrl } : {}),
    adsEndpoints: config.adsEndpoints,
    ...(config.secretsKey ? { secretsKey: config.secretsKey } : {}),
    twilio: { ...(config.twilioAuthToken ? { authToken: config.twilioAuthToken } : {}), ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}) },
  });
  serve(server, app);
  if (cluster.isPrimary && config.demo) await allowDemoOrigins(c, demoOrigins(config.host, port, config.publicUrl), log);
  if (cluster.isPrimary) {
    await printBanner(c, config, `http://${config.host}:${port}`, database.description);
    if (demoSeeded) startDemoHistory(c, config.demoHistoryDays, log);
  } else {
    process.send!({ listening: port });
  }

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: draining requests');
    // Whatever still holds on (a fetch that ignored its abort, a database that does not answer), the
    // process is gone within its drain time and a few seconds more; the outbox retries after the restart.
    setTimeout(() => {
      log.warn({ afterMs: DRAIN_MS + STOP_MS }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, DRAIN_MS + STOP_MS).unref();
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const forced = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
    await drained;
    clearTimeout(forced);
    await stop(); // the delivery worker abandons its attempts under way: they wait in the outbox
    await engine?.stop();
    await database.close();
    log.info('stopped');
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown(signal));
}
