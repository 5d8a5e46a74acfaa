// The weekly and monthly summaries' figures: the overview's for the last full week (Monday to
// Sunday) or the last full calendar month in the domain's time zone, each against the period of
// the same length before (reports/overview.ts), the top sources and keywords by leads, and the
// missed calls (busy or no answer, from the data API's daily rollups).
import { CallDays } from '../data/call-days.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { addDays, localTime } from '../domains/time-zone.ts';
import { overviewWithPrevious, type Overview } from '../reports/overview.ts';
import type { DayRange } from '../reports/day-range.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { DataCollections } from '../data/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';

export const PERIODS = ['week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

/** The last full week (Monday to Sunday) or calendar month before `now`, in local days. */
export function summaryRange(period: Period, now: Date, timeZone: string): DayRange {
  const today = localTime(now, timeZone).day;
  if (period === 'week') {
    const weekDay = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // 0: Monday
    const lastSunday = addDays(today, -weekDay - 1);
    return { from: addDays(lastSunday, -6), to: lastSunday };
  }
  const firstOfMonth = `${today.slice(0, 7)}-01`;
  const to = addDays(firstOfMonth, -1);
  return { from: `${to.slice(0, 7)}-01`, to };
}

export interface Summary {
  period: Period;
  overview: Overview;
  /** Rows with leads, most first (at most five). */
  topSources: Overview['sources'];
  topKeywords: Overview['keywords'];
  missedCalls: number;
  missedBefore: number;
}

const TOP = 5;
const byLeads = <T extends { leads: number; calls: number }>(rows: T[]) => rows.filter((r) => r.leads > 0).sort((a, b) => b.leads - a.leads || b.calls - a.calls).slice(0, TOP);

export async function summaryOf(c: TelephonyCollections & DataCollections & ReportCollections, domain: DomainDoc, period: Period, now = new Date()): Promise<Summary> {
  const range = summaryRange(period, now, domain.timeZone);
  const overview = await overviewWithPrevious(c, domain, range);
  const [missedCalls, missedBefore] = await Promise.all([missedIn(c, domain._id, range), missedIn(c, domain._id, { from: overview.previous!.from, to: overview.previous!.to })]);
  return { period, overview, topSources: byLeads(overview.sources), topKeywords: byLeads(overview.keywords), missedCalls, missedBefore };
}

/** Calls busy or not answered in the range. */
async function missedIn(c: TelephonyCollections & DataCollections, domainId: string, { from, to }: DayRange): Promise<number> {
  const days = await new CallDays(c).read(domainId, from, to, null);
  let missed = 0;
  for (const totals of days.values()) missed += (totals.BUSY?.calls ?? 0) + (totals.NORESPONSE?.calls ?? 0);
  return missed;
}
