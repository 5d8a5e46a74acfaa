// The overview of a domain over a range of local days: visits, views, calls and sales in total,
// per day, per source class and per keyword. It reads the daily counters only (traffic-days.ts and
// the data API's call rollups): a year is two ranges of at most 366 documents each.
import type { CallDayDoc, Collections, StatusTotals, TrafficCounts, TrafficDayDoc } from '../db/collections.ts';
import { CallDays } from '../data/call-days.ts';
import { TrafficDays } from './traffic-days.ts';
import { daysBetween } from './day-range.ts';

export const SOURCE_CLASSES = ['paid', 'organic', 'social', 'referral', 'direct'] as const;
/** Keywords shown, those with the most calls (then visits) first. */
const KEYWORD_ROWS = 50;

export interface Row {
  visits: number;
  views: number;
  calls: number;
  /** Calls per visit (tables) or per view (totals, days), 0 without visits or views. */
  conversionRate: number;
  orders: number;
  revenue: number;
}

export interface Overview {
  from: string;
  to: string;
  currency: string;
  totals: Row & { answered: number };
  days: ({ day: string } & Row)[];
  sources: ({ source: string } & Row)[];
  keywords: ({ keyword: string } & Row)[];
}

export async function overview(c: Collections, domain: { _id: string; currency: string }, from: string, to: string): Promise<Overview> {
  const [traffic, calls] = await Promise.all([
    new TrafficDays(c).read(domain._id, from, to, { visits: 1, views: 1, src: 1, kw: 1, sales: 1 }),
    new CallDays(c).readDays(domain._id, from, to, ['statuses', 'by.sourceClass', 'by.keyword']),
  ]);
  const trafficOf = new Map(traffic.map((d) => [d.day, d]));
  const callsOf = new Map(calls.map((d) => [d.day, d]));
  const days = daysBetween(from, to).map((day) => ({ day, ...row(dayCounts(trafficOf.get(day)), callCount(callsOf.get(day)?.statuses), 'views') }));

  const sources = new Map<string, { counts: TrafficCounts; calls: number }>();
  const keywords = new Map<string, { counts: TrafficCounts; calls: number }>();
  const entry = (table: typeof sources, key: string) => table.get(key) ?? table.set(key, { counts: {}, calls: 0 }).get(key)!;
  let answered = 0;
  for (const day of traffic) {
    for (const [key, counts] of Object.entries(day.src ?? {})) addCounts(entry(sources, key).counts, counts);
    for (const [key, counts] of Object.entries(day.kw ?? {})) addCounts(entry(keywords, key).counts, counts);
  }
  for (const day of calls) {
    answered += day.statuses.SUCCESS?.calls ?? 0;
    for (const [key, totals] of Object.entries(day.by?.sourceClass ?? {})) entry(sources, key).calls += callCount(totals);
    for (const [key, totals] of Object.entries(day.by?.keyword ?? {})) entry(keywords, key).calls += callCount(totals);
  }
  const totals = sumDays(traffic, calls);
  return {
    from,
    to,
    currency: domain.currency,
    totals: { ...row(totals.counts, totals.calls, 'views'), answered },
    days,
    sources: [...SOURCE_CLASSES, ...[...sources.keys()].filter((k) => !(SOURCE_CLASSES as readonly string[]).includes(k)).sort()]
      .map((source) => ({ source, ...row(sources.get(source)?.counts ?? {}, sources.get(source)?.calls ?? 0, 'visits') })),
    keywords: [...keywords.entries()]
      .map(([key, { counts, calls }]) => ({ keyword: decodeURIComponent(key), ...row(counts, calls, 'visits') }))
      .sort((a, b) => b.calls - a.calls || b.visits - a.visits || a.keyword.localeCompare(b.keyword))
      .slice(0, KEYWORD_ROWS),
  };
}

function sumDays(traffic: TrafficDayDoc[], calls: CallDayDoc[]): { counts: TrafficCounts; calls: number } {
  const counts: TrafficCounts = {};
  for (const day of traffic) addCounts(counts, dayCounts(day));
  return { counts, calls: calls.reduce((n, day) => n + callCount(day.statuses), 0) };
}

function dayCounts(day: TrafficDayDoc | undefined): TrafficCounts {
  return { visits: day?.visits, views: day?.views, orders: day?.sales?.orders, revenueCents: day?.sales?.revenueCents };
}

function addCounts(into: TrafficCounts, counts: TrafficCounts): void {
  for (const key of ['visits', 'views', 'orders', 'revenueCents'] as const) into[key] = (into[key] ?? 0) + (counts[key] ?? 0);
}

/** Calls of every status. */
export function callCount(totals: StatusTotals | undefined): number {
  return Object.values(totals ?? {}).reduce((n, t) => n + (t?.calls ?? 0), 0);
}

function row(counts: TrafficCounts, calls: number, per: 'visits' | 'views'): Row {
  const visits = counts.visits ?? 0;
  const views = counts.views ?? 0;
  const base = per === 'visits' ? visits : views;
  return {
    visits,
    views,
    calls,
    conversionRate: base ? Math.round((calls / base) * 10_000) / 10_000 : 0,
    orders: counts.orders ?? 0,
    revenue: (counts.revenueCents ?? 0) / 100,
  };
}
