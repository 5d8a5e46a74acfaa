// The back end's overview at scale (part of the data benchmark, whose 1,000,000 calls it reads):
// the traffic counters of 10,000,000 views over a year (BENCH_VIEWS), made by the tracker's own
// counter function (reports/traffic-days.ts `viewCounters`) and written as the days and keyword
// months they add up to, then GET /manage/api/domains/:domain/reports/overview for the year (in each
// touch model: the calls carry first and last non-direct touches) and for 30 days.
import type { Collections } from '../../collector/src/db/collections.ts';
import type { TrafficDayDoc } from '../../collector/src/reports/documents.ts';
import { dayKey } from '../../collector/src/data/call-days.ts';
import { localTime } from '../../collector/src/domains/time-zone.ts';
import { addAt } from '../../collector/src/reports/call-sources.ts';
import { monthKey } from '../../collector/src/reports/keyword-months.ts';
import { viewCounters } from '../../collector/src/reports/traffic-days.ts';
import type { SourceClass } from '../../collector/src/tracking/attribution.ts';

const VIEWS = Number(process.env.BENCH_VIEWS ?? 10_000_000);
/** Campaign keywords of a busy domain: a few hundred, a few of them most of the traffic. */
const KEYWORDS = 300;
const CLASSES: SourceClass[] = ['paid', 'organic', 'social', 'referral', 'direct'];
export const BENCH_SOURCES = ['paid:google', 'organic:www.google.com', 'social:facebook.com', 'referral:news.test', null];

/** A keyword for paid and organic calls (the first two sources), skewed: keyword 0 is the most common. */
export function benchKeyword(i: number): string | null {
  if (i % BENCH_SOURCES.length > 1) return null;
  return `keyword ${Math.floor(KEYWORDS * ((i * 7919) % 1000 / 1000) ** 3)}`;
}

/** A small deterministic generator, so two runs count the same views. */
function random(seed: number): () => number {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

export async function seedTrafficCounters(c: Collections, domainId: string, timeZone: string, yearStart: number): Promise<void> {
  const t = performance.now();
  const next = random(42);
  const perDay = Math.round(VIEWS / 365);
  const docs: TrafficDayDoc[] = [];
  for (let d = 0; d < 365; d++) {
    const day = localTime(new Date(yearStart + d * 86_400_000 + 12 * 3_600_000), timeZone).day;
    const doc: TrafficDayDoc = { _id: dayKey(domainId, day), domainId, day };
    for (let v = 0; v < perDay; v++) {
      const source = CLASSES[Math.floor(next() * CLASSES.length)]!;
      const keyword = source === 'paid' || source === 'organic' ? `keyword ${Math.floor(KEYWORDS * next() ** 3)}` : null;
      const counters = viewCounters({ isBot: false, attribution: { source, sourceName: null, keyword, gclid: null, utm: {} } }, next() < 0.4);
      for (const [path, n] of Object.entries(counters)) addAt(doc as unknown as Record<string, unknown>, path.split('.'), n);
    }
    docs.push(doc);
  }
  // The days' documents exist already where calls were counted: the views' counters join them.
  for (const { _id, ...counts } of docs) await c.trafficDays.updateOne({ _id }, { $set: counts }, { upsert: true });
  // And their keywords' visits add up by month, as keyword-months.ts keeps them.
  const months = new Map<string, Record<string, number>>();
  for (const doc of docs) {
    const visits = months.get(doc.day.slice(0, 7)) ?? months.set(doc.day.slice(0, 7), {}).get(doc.day.slice(0, 7))!;
    for (const [key, counts] of Object.entries(doc.kw ?? {})) addAt(visits, [key], counts.visits ?? 0);
  }
  for (const [month, visits] of months) await c.keywordMonths.updateOne({ _id: monthKey(domainId, month) }, { $set: { visits }, $setOnInsert: { domainId, month } }, { upsert: true });
  console.log(`traffic counters of ${(perDay * 365).toLocaleString('en')} views over 365 days written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

export async function timeOverview(base: string, domain: string, runs: number): Promise<void> {
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
    let body: { totals: { visits: number; views: number; calls: number }; keywords: unknown[] } | undefined;
    for (let run = 0; run < runs; run++) {
      const t = performance.now();
      const res = await fetch(`${base}/manage/api/domains/${domain}/reports/overview?from=${from}&to=${to}&model=${model}`, { headers: { cookie } });
      body = (await res.json()) as typeof body;
      times.push(performance.now() - t);
    }
    const median = [...times].sort((a, b) => a - b)[Math.floor(runs / 2)]!;
    const { visits, views, calls } = body!.totals;
    console.log(`${label}: ${median.toFixed(0)} ms (median of ${runs}, first ${times[0]!.toFixed(0)} ms): ${views.toLocaleString('en')} views, ${visits.toLocaleString('en')} visits, ${calls.toLocaleString('en')} calls, ${body!.keywords.length} keyword rows`);
  }
}
