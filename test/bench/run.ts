// `npm run bench`: /ospView (direct display, one phone) under concurrent load, against a bare
// route of the same app that does one insertOne into the same database. Prints both and their
// ratio at BENCH_CONNECTIONS (20), /ospView's p99 at 100 connections, and the database round trips
// of one view: a new visit, and a returning visit that keeps its number.
import Router from '@koa/router';
import autocannon from 'autocannon';
import { databaseLabel, startBenchCollector } from './bench-collector.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const MANY_CONNECTIONS = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 200);

const bench = await startBenchCollector(
  {
    accounts: [{
      name: 'Bench',
      domains: [{
        name: 'bench.test',
        apiKey: 'bench-api-key',
        // Every request of the load comes from one address: no per-address limit.
        numbersPerAddress: 0,
        pools: [{ type: 1, usage: 'online', numbers: Array.from({ length: POOL_SIZE }, (_, i) => `0800${String(i).padStart(6, '0')}`) }],
      }],
    }],
  },
  'load',
);
const bare = new Router();
bare.post('/bench/insert', async (ctx) => {
  const res = await bench.db.collection('bench_inserts').insertOne({ at: new Date(), ip: ctx.ip });
  ctx.body = { status: 'OK', id: String(res.insertedId) };
});
bench.app.use(bare.routes());
const base = await bench.listen();

// A new visit per request, released at once (expiration=0) so the pool never runs dry.
const viewBody = new URLSearchParams({
  api_key: 'bench-api-key', visit_id: '0', ip: '203.0.113.7', url: 'https://bench.test/contact', page_title: 'Contact',
  is_mobile: 'false', referer_url: '', nr_phones: '1', direct_display: 'true', phones: '0123456789', expiration: '0',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36',
}).toString();

async function load(title: string, urlPath: string, body: string, connections = CONNECTIONS) {
  const result = await autocannon({
    url: base + urlPath,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    connections,
    duration: SECONDS,
  });
  const line = `${`${title}, ${connections} conn.`.padEnd(40)} ${result.requests.average.toFixed(0).padStart(6)} req/s   p50 ${result.latency.p50} ms   p97.5 ${result.latency.p97_5} ms   p99 ${result.latency.p99} ms   non-2xx ${result.non2xx}   errors ${result.errors}`;
  console.log(line);
  return result;
}

/** Waits until the app has sent the database nothing for half a second (the outbox worker's polls aside). */
async function quiet(): Promise<void> {
  let last = Date.now();
  const listener = (e: { commandName: string; command: Record<string, unknown> }) => {
    if (e.command[e.commandName] !== 'outbox') last = Date.now();
  };
  bench.client.on('commandStarted', listener);
  while (Date.now() - last < 500) await new Promise((r) => setTimeout(r, 100));
  bench.client.off('commandStarted', listener);
}

/** Commands the app sends to the database while one request is answered: the outbox worker's polls
 * left out, and the id counters' `$inc`s, one per hundred ids, counted apart. */
async function roundTrips(fields: Record<string, string>): Promise<{ count: number; body: any }> {
  const commands: string[] = [];
  let idBlocks = 0;
  const listener = (e: { commandName: string; command: Record<string, unknown> }) => {
    const collection = e.command[e.commandName];
    if (collection === 'counters') idBlocks++;
    else if (collection !== 'outbox') commands.push(`${e.commandName} ${String(collection)}`);
  };
  bench.client.on('commandStarted', listener);
  const res = await fetch(`${base}/ospView`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  const body = await res.json();
  bench.client.off('commandStarted', listener);
  console.log(`  ${commands.join(', ')}${idBlocks ? ` (and ${idBlocks} id block${idBlocks > 1 ? 's' : ''} taken)` : ''}`);
  return { count: commands.length, body };
}

console.log(`${SECONDS} s per run, database: ${databaseLabel()}`);
const view = await load('/ospView direct, one phone', '/ospView', viewBody);
const insert = await load('bare insertOne route', '/bench/insert', 'x=1');
const assigned = await bench.c.leases.countDocuments();
console.log(`leases written: ${assigned} (ospView requests: ${view.requests.total})`);
console.log(`ratio /ospView : insertOne = ${(view.requests.average / insert.requests.average).toFixed(2)} (throughput), ${(view.latency.p50 / Math.max(insert.latency.p50, 0.001)).toFixed(2)}x median latency`);
const crowd = await load('/ospView direct, one phone', '/ospView', viewBody, MANY_CONNECTIONS);
console.log(`/ospView p99 at ${MANY_CONNECTIONS} connections: ${crowd.latency.p99} ms`);

// Round trips of one view, once the requests still queued from the load are answered.
await quiet();
const fields = Object.fromEntries(new URLSearchParams(viewBody));
console.log('database commands of one /ospView:');
const first = await roundTrips({ ...fields, expiration: '600' });
const again = await roundTrips({ ...fields, expiration: '600', visit_id: String(first.body.visitId) });
console.log(`round trips per /ospView: ${first.count} for a new visit, ${again.count} for a returning visit that keeps its number`);
await bench.close();
