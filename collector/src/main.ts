// Config -> database -> listen; graceful shutdown that drains requests and stops the embedded database.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.ts';
import { readFixtureFile } from './cli/fixture-file.ts';
import type { Fixture } from './cli/fixture.ts';
import { seedFixture } from './cli/seed-service.ts';
import { loadConfig } from './config.ts';
import { collections, type Collections } from './db/collections.ts';
import { connectDatabase } from './db/connect.ts';
import { hashKey } from './domains/keys.ts';
import { createLogger } from './logger.ts';

const DEMO_FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/demo.json');

let config;
try {
  config = loadConfig();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
const log = createLogger(config.logLevel);
const database = await connectDatabase({ mongodbUri: config.mongodbUri, dataDir: config.dataDir, dbName: config.mongodbDb, cacheSize: config.cacheSize });
const c = collections(database.db);
const demo = await readFixtureFile(DEMO_FIXTURE);
if ((await c.domains.countDocuments({}, { limit: 1 })) === 0) {
  await seedFixture(c, demo);
  log.info({ fixture: DEMO_FIXTURE }, 'empty database: demo fixture loaded');
}

const { app, stop } = createApp({
  db: database.db,
  log,
  trustProxy: config.trustProxy,
  browserLimits: config.browserLimits,
  demoPages: config.demoPages,
  ...(config.telephonyApiKey ? { telephonyApiKey: config.telephonyApiKey } : {}),
  delivery: { publicOnly: !config.allowPrivateWebhooks },
  ga4Endpoint: config.ga4Endpoint,
  signUp: config.signUp,
  ...(config.metricsKey ? { metricsKey: config.metricsKey } : {}),
  twilio: { ...(config.twilioAuthToken ? { authToken: config.twilioAuthToken } : {}), ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}) },
});
const server = app.listen(config.port, config.host);
await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
const address = server.address();
const base = `http://${config.host}:${typeof address === 'object' && address ? address.port : config.port}`;
console.log(`RingTrail collector on ${base}\nDatabase: ${database.description}`);
console.log(await demoBanner(c, demo));
if (!config.telephonyApiKey) console.log('Telephony (/telephony/*) is off: set TELEPHONY_API_KEY (16+ characters) to report calls');
console.log(`Back end: ${base}/manage/`);
if (config.demoPages) console.log(`Demo site: ${base}/demo/ (direct display) and ${base}/demo/click (click display)`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: draining requests');
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const forced = setTimeout(() => server.closeAllConnections(), 10_000);
  await drained;
  clearTimeout(forced);
  await stop(); // the delivery worker ends its attempts under way; what is left waits in the outbox
  await database.close();
  log.info('stopped');
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown(signal));

/** The demo's keys, printed while they are still the ones in the database. */
async function demoBanner(c: Collections, fixture: Fixture): Promise<string> {
  const lines: string[] = [];
  for (const account of fixture.accounts) {
    for (const d of account.domains) {
      const stored = await c.domains.findOne({ _id: d.name });
      if (!stored || !d.apiKey || stored.apiKeyHash !== hashKey(d.apiKey)) continue;
      lines.push(
        `Demo domain ${d.name} (account ${account.name}):`,
        `  api_key (/ospView, /ospClick, /ospExpiration): ${d.apiKey}`,
        `  data api_key: ${d.dataApiKey ?? '-'}    offline key: ${d.offlineApiKey ?? '-'}`,
        `  customer key: ${d.customerKey ?? '-'}    public key: ${d.publicKey ?? '-'}    call-center apiKey: ${account.callCenterApiKey ?? '-'}`,
        `  site phones: ${d.sitePhones.join(', ')}`,
        ...account.users.map((u) => `  back end user: ${u.username}, password ${u.password} (sign in at ${base}/manage/)`),
        `Try: curl -s ${base}/ospView -d api_key=${d.apiKey} -d visit_id=0 -d ip=203.0.113.7 -d url=https://${d.name}/ -d page_title=Home -d is_mobile=false -d referer_url= -d nr_phones=1 -d direct_display=true -d phones=${d.sitePhones[0] ?? ''}`,
      );
    }
  }
  return lines.join('\n');
}
