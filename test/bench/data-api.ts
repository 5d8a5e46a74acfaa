// `npm run bench` (data part): 1,000,000 calls over a year in one domain, their summaries (daily
// rollups, hourly page buckets) built by the repair path, as a million reports would have kept
// them, an index built on the full
// collection, then /data-api over HTTP: the first page, a deep page, group_by_day over 365 days
// and a filtered page, each at limit=5000, with the database's query plans. BENCH_CALLS changes the count.
// Then the back end's overview of the year, over those calls and the counters of 10,000,000 views
// (BENCH_VIEWS), counted by the tracker's own counter function.
import http from 'node:http';
import { CallSummaries } from '../../collector/src/house/call-summaries.ts';
import { ensureIndexes } from '../../collector/src/house/all-collections.ts';
import { UP_TO_DATE } from '../../collector/src/house/migrations.ts';
import type { CallDoc } from '../../collector/src/telephony/documents.ts';
import type { Touch } from '../../collector/src/tracking/touches.ts';
import { startOfLocalDay } from '../../collector/src/domains/time-zone.ts';
import { databaseLabel, startBenchCollector, startCollectorProcess } from './bench-collector.ts';
import { BENCH_PEOPLE, benchCallerOf, benchPersonOf, seedPeople, timeCallerLookups } from './callers.ts';
import { transcribeCalls } from './transcribed-page.ts';
import { benchCampaign, benchKeyword, benchLandingUrl, BENCH_SOURCES, seedTrafficCounters, timeOverview } from './overview.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000_000);
const BATCH = 5000;
/** The overview and the caller lookups are timed this many times over HTTP: the median is printed, and the first (cold) one. */
const RUNS = 5;
/** Rounds of the data API cases: each round sends each case once, in turn, so that every case meets
 * the collector and the database as warm as the others (the first round is the cold one). */
const PAGE_ROUNDS = 9;
const YEAR_START = Date.UTC(2025, 0, 1);
const YEAR_MS = 365 * 86_400_000;
const STATUSES = ['SUCCESS', 'SUCCESS', 'SUCCESS', 'BUSY', 'NORESPONSE'] as const;

const bench = await startBenchCollector(
  {
    accounts: [{ name: 'Bench', users: [{ username: 'bench@data.test', password: 'bench password' }], domains: [{ name: 'data.test', dataApiKey: 'bench-data-key', timeZone: 'Europe/Paris', pools: [{ type: 1, usage: 'online', numbers: ['0800000001', '0800000002'] }] }] }],
  },
  'data',
);

function call(i: number): CallDoc {
  const startedAt = new Date(YEAR_START + Math.floor((i / CALLS) * YEAR_MS)); // spread evenly, in id order
  const source = BENCH_SOURCES[i % BENCH_SOURCES.length]!;
  const keyword = benchKeyword(i);
  return {
    _id: i + 1,
    domainId: 'data.test',
    callRef: `bench-${i}`,
    trackingNumber: i % 2 ? '0800000001' : '0800000002',
    code: null,
    destination: '0123456789',
    caller: benchCallerOf(i),
    personId: benchPersonOf(i),
    startedAt,
    status: STATUSES[i % STATUSES.length]!,
    duration: i % 600,
    billingDuration: Math.ceil((i % 600) / 60) * 60,
    answerTime: i % 20,
    triggerType: 1,
    keypad: null,
    postcode: null,
    isRedirect: false,
    expiredRedirect: false,
    revenue: (i % 7) / 2,
    route: 'online',
    forcedStatus: null,
    receivedAt: startedAt,
    updatedAt: startedAt,
    visitId: i + 1,
    viewId: i + 1,
    url: 'https://data.test/contact',
    referrer: 'https://www.google.com/',
    source,
    keyword,
    gclid: null,
    clientData: null,
    callPath: 'https://data.test/\nhttps://data.test/contact',
    offlineDescription: null,
    rev: 0,
    // A third of the attributed callers first came from a paid ad; the others' first visit is the calling one.
    lastTouch: source ? benchTouch(i, source, keyword, benchCampaign(i), startedAt) : null,
    firstTouch: source && i % 3 === 0 ? benchTouch(i, 'paid:google', `keyword ${i % 300}`, `campaign ${i % 40}`, startedAt) : source ? benchTouch(i, source, keyword, benchCampaign(i), startedAt) : null,
    lastNonDirect: source ? benchTouch(i, source, keyword, benchCampaign(i), startedAt) : null,
    // What the domain's rules and people mark (rules/, ads/): the lead rule's answered 30 s, a tag on
    // a quarter of the calls, a value on a tenth of the leads, and paid leads sent to Google Ads.
    ...benchMarks(i, source, startedAt),
  };
}

function benchMarks(i: number, source: string | null, at: Date): Partial<CallDoc> {
  const lead = STATUSES[i % STATUSES.length] === 'SUCCESS' && i % 600 >= 30;
  return {
    firstCall: i % 3 === 0,
    matchConfidence: source ? 'certain' : 'none',
    matchCandidates: source ? 1 : 0,
    lead,
    tags: i % 12 === 0 ? ['Booked', 'Quote'] : i % 4 === 0 ? ['Booked'] : [],
    value: lead && i % 10 === 0 ? 120 : null,
    ...(lead && source === 'paid:google' ? { gclid: `Cj0KCQ-bench-${i}`, adsConversions: [{ platform: 'google', state: 'sent', at }] } : {}),
  };
}

function benchTouch(i: number, source: string, keyword: string | null, campaign: string | null, callAt: Date): Touch {
  return { visitId: i + 1, at: new Date(callAt.getTime() - (i % 30) * 86_400_000), source, keyword, landingUrl: benchLandingUrl(((i * 7919) % 1000) / 1000), campaign, content: null, gclid: null, msclkid: null, fbclid: null };
}

/** GET without a client-side time limit (fetch gives up after 300 s without headers). */
function getText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
      })
      .on('error', reject);
  });
}

try {
  let t = performance.now();
  for (let i = 0; i < CALLS; i += BATCH) {
    await bench.c.calls.insertMany(Array.from({ length: Math.min(BATCH, CALLS - i) }, (_, j) => call(i + j)), { ordered: false });
  }
  console.log(`Database: ${databaseLabel()}. Seeded ${CALLS.toLocaleString('en')} calls in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  const built = await new CallSummaries(bench.c).rebuild('data.test', 'Europe/Paris');
  console.log(`summaries rebuilt from the calls (npm run rebuild-summaries): ${built.days} daily rollups, ${built.hours} hourly page buckets in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  // An index added to a collection that is already large: it must get built (DB_CACHE_SIZE).
  await bench.c.calls.dropIndex('domainId_1_destination_1_startedAt_1__id_1');
  t = performance.now();
  await ensureIndexes(bench.c);
  console.log(`index {domainId, destination, startedAt, _id} built on ${CALLS.toLocaleString('en')} calls in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const base = await bench.listen();
  // Timed on a database at rest, as a user's is: the bulk load's last writes are checkpointed first
  // (fsync), and from a collector in a process of its own (a client does not share its event loop).
  await bench.c.domains.updateOne({ _id: 'data.test' }, { $set: UP_TO_DATE });
  await bench.client.db('admin').command({ fsync: 1 });
  const collector = await startCollectorProcess(bench);

  const total = CALLS;
  const deepPage = Math.max(1, Math.floor(total / 5000 / 2));
  const cases: { label: string; query: Record<string, string | number> }[] = [
    { label: 'first page (limit=5000)', query: { page: 1 } },
    { label: `deep page ${deepPage} (limit=5000)`, query: { page: deepPage } },
    { label: 'group_by_day, 365 days', query: { page: 1, group_by_day: 'true' } },
    { label: 'tracking_phone filter, first page (limit=5000)', query: { page: 1, tracking_phone: '0800000001' } },
    { label: 'status filter, deep page (limit=5000)', query: { page: Math.max(1, Math.floor(deepPage / 5)), status: 'BUSY' } },
  ];
  await timePages(collector.base, cases);

  // A labelled comparison: the first page again, once its answered calls have transcripts.
  t = performance.now();
  const transcribed = await transcribeCalls(bench, 'data.test', 1, 2 * 5000);
  console.log(`transcripts of the first pages' answered calls: ${transcribed.toLocaleString('en')} written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await bench.client.db('admin').command({ fsync: 1 });
  await timePages(collector.base, [{ label: 'first page, answered calls transcribed (comparison, limit=5000)', query: { page: 1 } }]);
  await collector.stop();

  // The plans the database chose for what a deep page sends: the rollups of the range, then the
  // page buckets of the days the page spans.
  const rollupPlan = await bench.c.callDays.find({ _id: { $gte: 'data.test|2025-01-01', $lte: 'data.test|2025-12-31' } }, { projection: { day: 1, statuses: 1 } }).explain();
  const from = startOfLocalDay('2025-07-02', 'Europe/Paris');
  const to = startOfLocalDay('2025-07-04', 'Europe/Paris');
  const bucketPlan = await bench.c.callPages.find({ _id: { $gte: `data.test|${from.toISOString()}`, $lt: `data.test|${to.toISOString()}` } }).explain();
  console.log('Query plan, rollups of the range:', winningPlan(rollupPlan));
  console.log('Query plan, page buckets of the days a page spans:', winningPlan(bucketPlan));

  await seedTrafficCounters(bench.c, 'data.test', 'Europe/Paris', YEAR_START);
  const cookie = await timeOverview(base, 'data.test', RUNS);

  t = performance.now();
  await seedPeople(bench, 'data.test', CALLS, call);
  console.log(`people of the calls (${BENCH_PEOPLE.toLocaleString('en')}, about ${Math.round(CALLS / BENCH_PEOPLE)} calls each): keys and contact entries written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await timeCallerLookups(bench, 'data.test', 'bench-data-key', cookie, RUNS);
} finally {
  await bench.close();
}

/** Times each case over HTTP in PAGE_ROUNDS rounds: its median, its first (cold) time, and what it answered. */
async function timePages(base: string, cases: { label: string; query: Record<string, string | number> }[]): Promise<void> {
  const times = cases.map(() => [] as number[]);
  const answers: { status: string; total_results?: number; results: unknown[]; bytes: number }[] = [];
  for (let round = 0; round < PAGE_ROUNDS; round++) {
    for (const [i, { query }] of cases.entries()) {
      const params = new URLSearchParams({ api_key: 'bench-data-key', type: 'calls', start_date: '2025-01-01', end_date: '2025-12-31', limit: '5000', ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
      const t = performance.now();
      const text = await getText(`${base}/data-api?${params}`);
      times[i]!.push(performance.now() - t);
      answers[i] = { ...(JSON.parse(text) as { status: string; results: unknown[] }), bytes: Buffer.byteLength(text) };
    }
  }
  for (const [i, { label }] of cases.entries()) {
    const median = [...times[i]!].sort((a, b) => a - b)[Math.floor(PAGE_ROUNDS / 2)]!;
    const body = answers[i]!;
    console.log(`${label}: ${median.toFixed(0)} ms (median of ${PAGE_ROUNDS} rounds, first ${times[i]![0]!.toFixed(0)} ms), ${body.status}, ${body.results.length} rows${body.total_results === undefined ? '' : ` of ${body.total_results}`}, ${(body.bytes / 1e6).toFixed(1)} MB`);
  }
}

/** The winning plan's stages and index, one line. */
function winningPlan(explain: Record<string, any>): string {
  return JSON.stringify(explain.queryPlanner?.winningPlan ?? explain).slice(0, 500);
}
