// `npm run bench`: /ospView (direct display, one phone) under concurrent load, against a bare
// route of the same app that does one insertOne into the same database. Prints both and their ratio.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Router from '@koa/router';
import autocannon from 'autocannon';
import { MongoClient } from 'mongodb';
import { createApp } from '../../collector/src/app.ts';
import { fixtureSchema } from '../../collector/src/cli/fixture.ts';
import { seedFixture } from '../../collector/src/cli/seed-service.ts';
import { collections, ensureIndexes } from '../../collector/src/db/collections.ts';
import { startEmbeddedDatabase } from '../../collector/src/db/embedded.ts';
import { createLogger } from '../../collector/src/logger.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const POOL_SIZE = 200;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-bench-'));
const embedded = process.env.MONGODB_URI ? undefined : await startEmbeddedDatabase(dataDir);
const client = await new MongoClient(process.env.MONGODB_URI ?? embedded!.uri).connect();
const db = client.db(`bench_${Date.now()}`);
const c = collections(db);
await ensureIndexes(c);
await seedFixture(
  c,
  fixtureSchema.parse({
    accounts: [{
      name: 'Bench',
      domains: [{
        name: 'bench.test',
        apiKey: 'bench-api-key',
        pools: [{ type: 1, usage: 'online', numbers: Array.from({ length: POOL_SIZE }, (_, i) => `0800${String(i).padStart(6, '0')}`) }],
      }],
    }],
  }),
);

const { app } = createApp({ db, log: createLogger('silent') });
const bare = new Router();
bare.post('/bench/insert', async (ctx) => {
  const res = await db.collection('bench_inserts').insertOne({ at: new Date(), ip: ctx.ip });
  ctx.body = { status: 'OK', id: String(res.insertedId) };
});
app.use(bare.routes());
const server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// A new visit per request, released at once (expiration=0) so the pool never runs dry.
const viewBody = new URLSearchParams({
  api_key: 'bench-api-key', visit_id: '0', ip: '203.0.113.7', url: 'https://bench.test/contact', page_title: 'Contact',
  is_mobile: 'false', referer_url: '', nr_phones: '1', direct_display: 'true', phones: '0123456789', expiration: '0',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36',
}).toString();

async function load(title: string, urlPath: string, body: string) {
  const result = await autocannon({
    url: base + urlPath,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  const line = `${title.padEnd(28)} ${result.requests.average.toFixed(0).padStart(6)} req/s   p50 ${result.latency.p50} ms   p97.5 ${result.latency.p97_5} ms   p99 ${result.latency.p99} ms   non-2xx ${result.non2xx}   errors ${result.errors}`;
  console.log(line);
  return result;
}

console.log(`${CONNECTIONS} connections, ${SECONDS} s each, database: ${process.env.MONGODB_URI ? 'MONGODB_URI' : 'embedded FerretDB (SQLite)'}`);
const view = await load('/ospView direct, one phone', '/ospView', viewBody);
const insert = await load('bare insertOne route', '/bench/insert', 'x=1');
const assigned = await c.leases.countDocuments();
console.log(`leases written: ${assigned} (ospView requests: ${view.requests.total})`);
console.log(`ratio /ospView : insertOne = ${(view.requests.average / insert.requests.average).toFixed(2)} (throughput), ${(view.latency.p50 / Math.max(insert.latency.p50, 0.001)).toFixed(2)}x median latency`);

server.close();
await db.dropDatabase();
await client.close();
await embedded?.stop();
rmSync(dataDir, { recursive: true, force: true });
