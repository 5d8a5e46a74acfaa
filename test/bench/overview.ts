// The back end's overview at scale (part of the data benchmark, whose 1,000,000 calls it reads):
// the traffic counters of 10,000,000 views over a year (BENCH_VIEWS), made by the tracker's own
// counter functions (reports/traffic-days.ts `viewCounters`, `limitedCounters`) and written as the
// days and months they add up to (keywords, campaigns, landing pages), then GET /manage/api/domains/:domain/reports/overview for the year (in each
// touch model: the calls carry first and last non-direct touches) and for 30 days.
import type { AllCollections } from '../../collector/src/house/all-collections.ts';
import type { TrafficDayDoc } from '../../collector/src/reports/documents.ts';
import { dayKey } from '../../collector/src/data/call-days.ts';
import { localTime } from '../../collector/src/domains/time-zone.ts';
import { addAt } from '../../collector/src/reports/counted-places.ts';
import { addToMonth, monthKey } from '../../collector/src/reports/dimension-months.ts';
import { limitedCounters, viewCounters } from '../../collector/src/reports/traffic-days.ts';
import { admitInto } from '../../collector/src/reports/key-limits.ts';
import type { SourceClass } from '../../collector/src/tracking/attribution.ts';

const VIEWS = Number(process.env.BENCH_VIEWS ?? 10_000_000);
/** Campaign keywords of a busy domain: a few hundred, a few of them most of the traffic. */
const KEYWORDS = 300;
/** Its ad campaigns, and the pages visits start on (a shop's categories and products). */
const CAMPAIGNS = 40;
const LANDING_PAGES = 2000;
const CLASSES: SourceClass[] = ['paid', 'organic', 'social', 'referral', 'direct'];
export const BENCH_SOURCES = ['paid:google', 'organic:www.google.com', 'social:facebook.com', 'referral:news.test', null];

/** A keyword for paid and organic calls (the first two sources), skewed: keyword 0 is the most common. */
export function benchKeyword(i: number): string | null {
  if (i % BENCH_SOURCES.length > 1) return null;
  return `keyword ${Math.floor(KEYWORDS * ((i * 7919) % 1000 / 1000) ** 3)}`;
}

/** A campaign for paid calls and visits, skewed like keywords. */
export function benchCampaign(i: number): string | null {
  return i % BENCH_SOURCES.length === 0 ? `campaign ${Math.floor(CAMPAIGNS * ((i * 104_729) % 1000 / 1000) ** 2)}` : null;
}

/** The page a visit started on: a few pages most often, a long tail of others. */
export function benchLandingUrl(n: number): string {
  return `https://data.test/products/${Math.floor(LANDING_PAGES * n ** 3)}`;
}

/** A small deterministic generator, so two runs count the same views. */
function random(seed: number): () => number {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

export async function seedTrafficCounters(c: AllCollections, domainId: string, timeZone: string, yearStart: number): Promise<void> {
  const t = performance.now();
  const next = random(42);
  const perDay = Math.round(VIEWS / 365);
  const docs: TrafficDayDoc[] = [];
  const months = new Map<string, { fields: Record<string, Record<string, number>>; keys: Map<string, Set<string>> }>();
  for (let d = 0; d < 365; d++) {
    const day = localTime(new Date(yearStart + d * 86_400_000 + 12 * 3_600_000), timeZone).day;
    const doc: TrafficDayDoc = { _id: dayKey(domainId, day), domainId, day };
    const month = months.get(day.slice(0, 7)) ?? months.set(day.slice(0, 7), { fields: {}, keys: new Map() }).get(day.slice(0, 7))!;
    const dayKeys = new Map<string, Set<string>>();
    for (let v = 0; v < perDay; v++) {
      const source = CLASSES[Math.floor(next() * CLASSES.length)]!;
      const keyword = source === 'paid' || source === 'organic' ? `keyword ${Math.floor(KEYWORDS * next() ** 3)}` : null;
      const utm = source === 'paid' ? { utm_campaign: `campaign ${Math.floor(CAMPAIGNS * next() ** 2)}` } : {};
      const visit = { isBot: false, attribution: { source, sourceName: null, keyword, gclid: null, utm }, landingUrl: benchLandingUrl(next()) };
      // As the collector counts them: each table's keys admitted up to its limit, the month's from the day's.
      const counters = await limitedCounters(viewCounters(visit, next() < 0.4), (scope, table, key) => admitInto(scope === 'day' ? dayKeys : month.keys, table, key));
      for (const [path, n] of Object.entries(counters.day)) addAt(doc as unknown as Record<string, unknown>, path.split('.'), n);
      for (const [path, n] of Object.entries(counters.month)) addToMonth(month.fields, path, n);
    }
    docs.push(doc);
  }
  // The days' documents exist already where calls were counted: the views' counters join them.
  for (const { _id, ...counts } of docs) await c.trafficDays.updateOne({ _id }, { $set: counts }, { upsert: true });
  for (const [month, { fields }] of months) await c.keywordMonths.updateOne({ _id: monthKey(domainId, month) }, { $set: fields, $setOnInsert: { domainId, month } }, { upsert: true });
  console.log(`traffic counters of ${(perDay * 365).toLocaleString('en')} views over 365 days written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

/** Answers the signed-in session's cookie, for what is timed after. */
export async function timeOverview(base: string, domain: string, runs: number): Promise<string> {
  const login = await fetch(`${base}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bench@data.test', password: 'bench password' }) });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const cases = [
    ['overview of the year', '2025-01-01', '2025-12-31', 'last-touch'],
    ['overview of the year, first touch', '2025-01-01', '2025-12-31', 'first-touch'],
    ['overview of the year, last non-direct', '2025-01-01', '2025-12-31', 'last-non-direct'],
    ['overview of 30 days', '2025-06-01', '2025-06-30', 'last-touch'],
  ] as const;
  for (const [label, from, to, model] of cases) {
    const times: number[] = [];
    let body: { totals: { visits: number; views: number; calls: number }; keywords: unknown[]; campaigns: unknown[]; landingPages: unknown[] } | undefined;
    for (let run = 0; run < runs; run++) {
      const t = performance.now();
      const res = await fetch(`${base}/manage/api/domains/${domain}/reports/overview?from=${from}&to=${to}&model=${model}`, { headers: { cookie } });
      body = (await res.json()) as typeof body;
      times.push(performance.now() - t);
    }
    const median = [...times].sort((a, b) => a - b)[Math.floor(runs / 2)]!;
    const { visits, views, calls } = body!.totals;
    console.log(`${label}: ${median.toFixed(0)} ms (median of ${runs}, first ${times[0]!.toFixed(0)} ms): ${views.toLocaleString('en')} views, ${visits.toLocaleString('en')} visits, ${calls.toLocaleString('en')} calls, ${body!.keywords.length} keyword, ${body!.campaigns.length} campaign and ${body!.landingPages.length} landing page rows`);
  }
  return cookie;
}
