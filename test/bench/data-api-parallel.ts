// `npm run bench` (data part, in parallel): 50 /data-api pages of 5,000 rows asked at once by one
// key of a collector in a process of its own (as `npm start` runs it, on this benchmark's
// database), while /healthz is asked every 20 ms at a steady pace (open loop: each probe is sent
// on time, whatever the earlier ones are doing). Run twice on the same data: every page at once
// (as before the page gate) and through the gate (DATA_PAGES_AT_ONCE per domain). Goal: /healthz
// under 200 ms.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { CallSummaries } from '../../collector/src/house/call-summaries.ts';
import { DATA_PAGES_AT_ONCE } from '../../collector/src/data/page-gate.ts';
import type { CallDoc } from '../../collector/src/telephony/documents.ts';
import { databaseLabel, startBenchCollector } from './bench-collector.ts';

const CALLS = 50_000;
const PAGES = 50;
const PROBE_EVERY_MS = 20;
const DAY0 = Date.UTC(2025, 5, 1);

const bench = await startBenchCollector({ accounts: [{ name: 'Bench', domains: [{ name: 'data.test', dataApiKey: 'bench-data-key' }] }] }, 'data_parallel');

const call = (i: number): CallDoc => {
  const startedAt = new Date(DAY0 + Math.floor((i / CALLS) * 10 * 86_400_000));
  return {
    _id: i + 1, domainId: 'data.test', callRef: `p-${i}`, trackingNumber: '0800000001', code: null, destination: '0123456789', caller: `06${String(i).padStart(8, '0')}`,
    startedAt, status: 'SUCCESS', duration: 60, billingDuration: 60, answerTime: 3, triggerType: 1, keypad: null, postcode: null, isRedirect: false, expiredRedirect: false,
    revenue: 0, route: 'online', forcedStatus: null, receivedAt: startedAt, updatedAt: startedAt, visitId: i + 1, viewId: i + 1, url: 'https://data.test/contact',
    referrer: 'https://www.google.com/', source: 'organic:www.google.com', keyword: 'boiler repair', gclid: null, clientData: null, callPath: 'https://data.test/contact', offlineDescription: null, rev: 0,
  };
};

const METRICS_KEY = 'bench-metrics-key-0123';
/** The collector's own event-loop delay since the last scrape (prom-client's monitorEventLoopDelay), in ms. */
async function eventLoopLagMax(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_KEY}` } })).text();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1] ?? NaN) * 1000;
}

/** GETs `url` and counts the bytes of its answer, without keeping or decoding them. */
function bytesOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length)).on('end', () => resolve(bytes));
    }).on('error', reject);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** The collector as `npm start` runs it, on the benchmark's database; resolves with its base URL. */
function startCollectorProcess(pagesAtOnce: number): Promise<{ base: string; stop: () => Promise<void> }> {
  const env = { ...process.env, MONGODB_URI: bench.uri, MONGODB_DB: bench.db.databaseName, PORT: '0', DEMO: 'false', LOG_LEVEL: 'warn', DATA_PAGES_AT_ONCE: String(pagesAtOnce), METRICS_KEY: METRICS_KEY };
  const child = spawn(process.execPath, ['--import', 'tsx', 'collector/src/main.ts'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const base = /collector on (http:\/\/\S+)/.exec(out)?.[1];
      if (base && out.includes('Back end:')) resolve({ base, stop: () => new Promise((done) => (child.once('exit', () => done()), child.kill('SIGTERM'))) });
    });
    child.once('exit', (code) => reject(new Error(`the collector exited with ${code}: ${out}`)));
  });
}

async function run(label: string, pagesAtOnce: number): Promise<void> {
  const { base, stop } = await startCollectorProcess(pagesAtOnce);
  // A process that has served a page already (its code compiled, its connections open), as in production.
  await fetch(`${base}/data-api?${new URLSearchParams({ api_key: 'bench-data-key', type: 'calls', start_date: '2025-06-01', end_date: '2025-06-10', limit: '5000', page: '1' })}`).then((r) => r.text());
  const probes: Promise<number>[] = [];
  await eventLoopLagMax(base); // resets the collector's own measure
  const pacer = setInterval(() => {
    const sent = performance.now();
    probes.push(fetch(`${base}/healthz`).then(() => performance.now() - sent));
  }, PROBE_EVERY_MS);
  const started = performance.now();
  const pages = await Promise.all(
    Array.from({ length: PAGES }, (_, i) =>
      // Counted and dropped, not decoded: this process must stay free to send the probes on time.
      bytesOf(`${base}/data-api?${new URLSearchParams({ api_key: 'bench-data-key', type: 'calls', start_date: '2025-06-01', end_date: '2025-06-10', limit: '5000', page: String((i % 10) + 1) })}`),
    ),
  );
  const wall = performance.now() - started;
  clearInterval(pacer);
  const latencies = (await Promise.all(probes)).sort((a, b) => a - b);
  const lag = await eventLoopLagMax(base);
  await stop();
  const megabytes = pages.reduce((n, bytes) => n + bytes, 0) / 1e6;
  console.log(
    `${label}: ${PAGES} pages of 5,000 rows (${megabytes.toFixed(0)} MB) in ${(wall / 1000).toFixed(1)} s; /healthz every ${PROBE_EVERY_MS} ms meanwhile (open loop, ${latencies.length} probes): ` +
      `p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p99 ${percentile(latencies, 0.99).toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms; the collector's longest event-loop delay ${lag.toFixed(0)} ms`,
  );
}

try {
  for (let i = 0; i < CALLS; i += 5000) await bench.c.calls.insertMany(Array.from({ length: 5000 }, (_, j) => call(i + j)), { ordered: false });
  await new CallSummaries(bench.c).rebuild('data.test', 'UTC');
  console.log(`Database: ${databaseLabel()}. ${CALLS.toLocaleString('en')} calls over 10 days`);
  await run('every page at once (no gate)', 10_000);
  await run(`through the page gate (${DATA_PAGES_AT_ONCE} at once per domain)`, DATA_PAGES_AT_ONCE);
} finally {
  await bench.close();
}
