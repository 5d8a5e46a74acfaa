// `npm run bench`: /ospView (direct display, one phone) as a site runs it, the domain's default
// settings (numbersPerAddress 4: the address cap on) and each visit from a client address of its
// own, as real visitors are; beside it in the same run, for comparison, the same with the cap off
// (numbersPerAddress 0), and a bare route of the same app that does one insertOne into the same
// database.
//
// - Closed loop, BENCH_CONNECTIONS (20) connections each sending its next request when the last is
//   answered: each route's throughput and their ratios.
// - Open loop: requests sent at a steady pace, one every 1/rate seconds whatever the answers, for
//   BENCH_OPEN_SECONDS (20), once the database has settled after the closed loops, by a client in a
//   process of its own (open-loop.ts), each request from its own address; latency counted from each
//   request's scheduled time, after a warm-up of 2 s at that rate. At half the default
//   configuration's closed-loop throughput, and at a fixed 150 views/s (a busy site), each with the
//   defaults then with the cap off. Beside each, the database's journal syncs over those seconds
//   (serverStatus): how many, how long each, and the share of the time the journal was syncing.
// - Database operations per view, for each configuration: of one view alone (a new visit; a
//   returning visit that keeps its number), and in the steady state, all the commands the app sent
//   during a closed-loop load divided by the views answered (the outbox worker's polls left out; id
//   blocks, traffic counter flushes and the reads of free slots counted in, as their share).
import { readFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Router from '@koa/router';
import autocannon from 'autocannon';
import { databaseLabel, startBenchCollector } from './bench-collector.ts';
import type { OpenLoopPlan, OpenLoopResult } from './open-loop.ts';
import { visitorAddress } from './addresses.ts';

const run = promisify(execFile);

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 200);
/** Visits of the returning-visit load, each holding a number of the pool. */
const RETURNING_VISITS = 100;
/** The open loop's length: a p99 over some 15,000 requests, which one pause of the database's
 * does not make by itself. */
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 20);
/** The open loop's first seconds, not counted: the client opens its connections. */
const WARM_UP_SECONDS = 2;
/** The open loop's rate when set (A/B comparisons at one rate); unset: half the closed loop's. */
const OPEN_RATE = Number(process.env.BENCH_OPEN_RATE ?? 0);
/** A busy site's rate, for the tail a modest load sees. */
const BUSY_RATE = 150;

const pool = (first: number) => [{ type: 1, usage: 'online', numbers: Array.from({ length: POOL_SIZE }, (_, i) => `08${String(first + i).padStart(8, '0')}`) }];
const bench = await startBenchCollector(
  {
    accounts: [{
      name: 'Bench',
      domains: [
        // The domain's defaults: numbersPerAddress 4.
        { name: 'bench.test', apiKey: 'bench-api-key', pools: pool(0) },
        // The comparison: the address cap off.
        { name: 'nocap.test', apiKey: 'nocap-api-key', numbersPerAddress: 0, pools: pool(POOL_SIZE) },
      ],
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

// A new visit per request, released at once (expiration=0) so the pool never runs dry, each from an
// address of its own (the n-th request's: visitorAddress).
const viewFields = {
  api_key: 'bench-api-key', visit_id: '0', ip: '203.0.113.7', url: 'https://bench.test/contact', page_title: 'Contact',
  is_mobile: 'false', referer_url: '', nr_phones: '1', direct_display: 'true', phones: '0123456789', expiration: '0',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36',
};
const CONFIGURATIONS = [
  { label: 'defaults (address cap 4)', fields: viewFields },
  { label: 'address cap off', fields: { ...viewFields, api_key: 'nocap-api-key', url: 'https://nocap.test/contact' } },
] as const;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** Addresses handed out so far: every request of every load has a new one. */
let addresses = 0;
const newAddress = () => visitorAddress(++addresses);

/** Counts the commands the app sends while `work` runs, the outbox worker's polls left out. */
async function commandsDuring<T>(work: () => Promise<T>): Promise<{ result: T; commands: Map<string, number> }> {
  const commands = new Map<string, number>();
  const listener = (e: { commandName: string; command: Record<string, unknown> }) => {
    const collection = String(e.command[e.commandName]);
    if (collection === 'outbox') return;
    const name = `${e.commandName} ${collection}`;
    commands.set(name, (commands.get(name) ?? 0) + 1);
  };
  bench.client.on('commandStarted', listener);
  try {
    return { result: await work(), commands };
  } finally {
    bench.client.off('commandStarted', listener);
  }
}

const total = (commands: Map<string, number>) => [...commands.values()].reduce((a, b) => a + b, 0);

async function closedLoop(title: string, urlPath: string, requests: autocannon.Request[]) {
  const { result, commands } = await commandsDuring(() => autocannon({ url: base + urlPath, method: 'POST', headers: FORM, requests, connections: CONNECTIONS, duration: SECONDS }));
  console.log(`${`${title}, ${CONNECTIONS} conn. (closed loop)`.padEnd(52)} ${result.requests.average.toFixed(0).padStart(6)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   non-2xx ${result.non2xx}   errors ${result.errors}`);
  return { result, perRequest: total(commands) / Math.max(1, result.requests.total), commands };
}

/** The open loop at `rate` a second, from a process of its own (open-loop.ts), each request from an
 * address no other request used. */
async function openLoop(title: string, fields: Record<string, string>, rate: number): Promise<OpenLoopResult> {
  // The open loop's process numbers its requests from 0: its addresses start past every one used.
  const first = addresses + 1;
  const plan: OpenLoopPlan = { url: `${base}/ospView`, body: new URLSearchParams(fields).toString(), rate, seconds: OPEN_SECONDS, warmUpSeconds: WARM_UP_SECONDS, newAddresses: true, firstAddress: first };
  addresses += Math.ceil(rate * (OPEN_SECONDS + WARM_UP_SECONDS)) + 1;
  const syncsBefore = await journalSyncs();
  const { stdout } = await run(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./open-loop.ts', import.meta.url)), JSON.stringify(plan)]);
  const syncsAfter = await journalSyncs();
  const result = JSON.parse(stdout.trim().split('\n').pop()!) as OpenLoopResult;
  const failed = Object.entries(result.failures).map(([why, n]) => `${n} ${why}`).join(', ') || 'none';
  console.log(`${`/ospView, ${title} (open loop)`.padEnd(52)} offered ${rate.toFixed(0)} req/s   achieved ${result.achieved.toFixed(0)} req/s   p50 ${result.p50.toFixed(1)} ms   p99 ${result.p99.toFixed(1)} ms   failed: ${failed}`);
  if (syncsBefore && syncsAfter) {
    const syncs = syncsAfter.count - syncsBefore.count;
    const micros = syncsAfter.micros - syncsBefore.micros;
    const seconds = OPEN_SECONDS + WARM_UP_SECONDS; // the client's own start adds a quiet moment
    console.log(`  journal syncs during the open loop: ${(syncs / seconds).toFixed(0)}/s, ${(micros / Math.max(1, syncs)).toFixed(0)} µs each, the journal syncing ${((micros / 1e6 / seconds) * 100).toFixed(0)} % of the time`);
  }
  return result;
}

/** WiredTiger's journal syncs so far (serverStatus, on the embedded database and on MongoDB alike); null when not reported. */
async function journalSyncs(): Promise<{ count: number; micros: number } | null> {
  const log = (await bench.client.db('admin').command({ serverStatus: 1 }).catch(() => null))?.wiredTiger?.log;
  const count = log?.['log sync operations'];
  const micros = log?.['log sync time duration (usecs)'];
  return typeof count === 'number' && typeof micros === 'number' ? { count, micros } : null;
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

/** Waits until the embedded database has settled after the closed loops (its own background work
 * on their writes): under a tenth of a core over half a second, or 30 s at most. The open loop
 * measures a steady half load, not the recovery from a full one. */
async function settled(): Promise<void> {
  if (bench.databasePid === null) return;
  const cpu = () => readFileSync(`/proc/${bench.databasePid}/stat`, 'utf8').split(') ')[1]!.split(' ').slice(11, 13).reduce((a, b) => a + Number(b), 0);
  const deadline = Date.now() + 30_000;
  for (let before = cpu(); Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpu();
    if (now - before < 5) return; // clock ticks of 10 ms: under 50 ms of CPU in 500 ms
    before = now;
  }
}

const postView = async (fields: Record<string, string>) => (await fetch(`${base}/ospView`, { method: 'POST', headers: FORM, body: new URLSearchParams(fields) })).json();

/** The commands of one view sent alone, the database otherwise quiet. */
async function oneView(fields: Record<string, string>): Promise<{ count: number; body: any }> {
  const { result: body, commands } = await commandsDuring(() => postView(fields));
  console.log(`  ${[...commands].map(([name, n]) => (n > 1 ? `${n} × ${name}` : name)).join(', ')}`);
  return { count: total(commands), body };
}

console.log(`${SECONDS} s per run, database: ${databaseLabel()}; every view from a client address of its own`);
const insert = await closedLoop('bare insertOne route', '/bench/insert', [{ body: 'x=1' }]);
const newVisits = (fields: Record<string, string>) => [{ setupRequest: (req: autocannon.Request) => ({ ...req, body: new URLSearchParams({ ...fields, ip: newAddress() }).toString() }) }];
// Not counted: a few seconds of each configuration first, so that neither is measured cold (in one
// run of six, the first /ospView load after the bare inserts ran at half the speed of the others).
for (const { fields } of CONFIGURATIONS) await autocannon({ url: `${base}/ospView`, method: 'POST', headers: FORM, requests: newVisits(fields), connections: CONNECTIONS, duration: 3 });
const loads = [];
for (const { label, fields } of CONFIGURATIONS) {
  await quiet();
  await settled();
  loads.push(await closedLoop(`/ospView, ${label}, new visits`, '/ospView', newVisits(fields)));
}
const [defaults, capOff] = loads as [Awaited<ReturnType<typeof closedLoop>>, Awaited<ReturnType<typeof closedLoop>>];
const per = (a: typeof insert, b: typeof insert) => (a.result.requests.average / b.result.requests.average).toFixed(2);
console.log(`ratio defaults : cap off = ${per(defaults, capOff)}; defaults : insertOne = ${per(defaults, insert)}; cap off : insertOne = ${per(capOff, insert)} (throughput, closed loop)`);
const half = OPEN_RATE || defaults.result.requests.average / 2;
for (const [title, fields, rate] of [
  [CONFIGURATIONS[0].label, CONFIGURATIONS[0].fields, half],
  [CONFIGURATIONS[1].label, CONFIGURATIONS[1].fields, half],
  [CONFIGURATIONS[0].label, CONFIGURATIONS[0].fields, BUSY_RATE],
  [CONFIGURATIONS[1].label, CONFIGURATIONS[1].fields, BUSY_RATE],
] as const) {
  await quiet();
  await settled();
  await openLoop(title, fields, rate);
}

// Returning visits that keep their number (defaults): each of RETURNING_VISITS visits holds one, and comes back.
await quiet();
const visits: { id: string; ip: string }[] = [];
for (let i = 0; i < RETURNING_VISITS; i++) {
  const ip = newAddress();
  visits.push({ id: String((await postView({ ...viewFields, ip, expiration: '600' })).visitId), ip });
}
let nextVisit = 0;
const returning = await closedLoop('/ospView, defaults, returning visits', '/ospView', [
  {
    setupRequest: (req) => {
      const visit = visits[nextVisit++ % visits.length]!;
      return { ...req, body: new URLSearchParams({ ...viewFields, ip: visit.ip, expiration: '600', visit_id: visit.id }).toString() };
    },
  },
]);

for (const [i, { label, fields }] of CONFIGURATIONS.entries()) {
  await quiet();
  console.log(`database commands of one /ospView sent alone, ${label}:`);
  const first = await oneView({ ...fields, ip: newAddress(), expiration: '600' });
  const again = await oneView({ ...fields, ip: visitorAddress(addresses), expiration: '600', visit_id: String(first.body.visitId) });
  const load = loads[i]!;
  console.log(`database operations per /ospView, ${label}: alone ${first.count} for a new visit, ${again.count} for a returning visit that keeps its number; in the steady state (closed loop) ${load.perRequest.toFixed(2)} for a new visit${i === 0 ? `, ${returning.perRequest.toFixed(2)} for a returning visit` : ''}`);
  console.log(`  per view under load, new visits: ${[...load.commands].map(([name, n]) => `${name} ${(n / load.result.requests.total).toFixed(2)}`).join(', ')}`);
}
console.log(`  per view under load, returning visits (defaults): ${[...returning.commands].map(([name, n]) => `${name} ${(n / returning.result.requests.total).toFixed(2)}`).join(', ')}`);
await bench.close();
