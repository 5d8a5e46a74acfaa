// `npm run bench`, the processes part: `npm start`'s collector with WORKERS=1, 2 and 4 on one
// embedded database (each count on a fresh one), loaded over loopback by autocannon in this
// process: /ospView (a new visit per request from an address of its own, its number released at
// once) and the browser door /t/view (a page without phones: the door's key, origin and rate
// limits, and the view; every request from loopback, so the door's per-address limits are raised).
// BENCH_SECONDS (10) per run, BENCH_CONNECTIONS (50).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { exitOf, startMain } from '../helpers/main-process.ts';
import { visitorAddress } from './addresses.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

const osp = new URLSearchParams({
  api_key: 'track-acme-demo', visit_id: '0', ip: '203.0.113.7', url: 'https://acme.example/', page_title: 'Home',
  is_mobile: 'false', referer_url: '', nr_phones: '1', direct_display: 'true', phones: '0123456789', expiration: '0', user_agent: AGENT,
}).toString();
const door = new URLSearchParams({ key: 'pk-acme-demo', visit_id: '0', url: 'http://127.0.0.1:8080/', page_title: 'Home', referer_url: '', phones: '' }).toString();

let addresses = 0;
/** Each /ospView from a client address of its own, as real visitors are. */
const ospRequests = [{ setupRequest: (req: autocannon.Request) => ({ ...req, body: new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(osp)), ip: visitorAddress(++addresses) }).toString() }) }];

async function load(url: string, body: string, headers: Record<string, string>, requests?: autocannon.Request[]) {
  const r = await autocannon({ url, method: 'POST', headers, body, connections: CONNECTIONS, duration: SECONDS, ...(requests ? { requests } : {}) });
  return `${r.requests.average.toFixed(0).padStart(5)} req/s  p99 ${String(r.latency.p99).padStart(4)} ms  non-2xx ${r.non2xx}`;
}

console.log(`collector processes on one embedded SecantusDB, ${CONNECTIONS} connections, ${SECONDS} s each, 2 cores`);
for (const workers of [1, 2, 4]) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-processes-'));
  const started = await startMain(dataDir, { WORKERS: String(workers), BROWSER_LIMIT_PER_IP: '100000000', BROWSER_LIMIT_PER_VISIT: '100000000' });
  try {
    const ospLine = await load(`${started.baseUrl}/ospView`, osp, { 'content-type': 'application/x-www-form-urlencoded' }, ospRequests);
    const doorLine = await load(`${started.baseUrl}/t/view`, door, { 'content-type': 'text/plain;charset=UTF-8', origin: 'http://127.0.0.1:8080', 'user-agent': AGENT });
    console.log(`WORKERS=${workers}  /ospView ${ospLine}   /t/view ${doorLine}`);
  } finally {
    started.child.kill('SIGTERM');
    await exitOf(started.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
