// Daily rollups of a domain's calls, kept at write time (MongoDB's computed pattern): per local day
// of the domain and per status, the calls, their duration and their revenue in cents; the same again
// per tracking number, per destination and per offline description, the filters of the data API
// that can match most of a domain's calls. The data API reads them for totals, daily rows and the
// days a page spans, instead of counting a year of calls.
//
// A call's write and its rollup's `$inc` are two steps: `rebuild` recomputes a domain's rollups
// from its calls, after a crash between the two or a change of the domain's time zone.
import type { CallStatus } from '@ringtrail/shared';
import type { CallDayDoc, RollupDimension, StatusTotals, DataCollections } from './documents.ts';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import { localTime } from '../domains/time-zone.ts';
import { keysUnder } from '../db/key-ranges.ts';
import { ownEntry } from '../own-entry.ts';
import { RECEIVED } from '../telephony/directions.ts';

export const ROLLUP_DIMENSIONS: readonly RollupDimension[] = ['trackingNumber', 'destination', 'offlineDescription'];

type Counted = Pick<CallDoc, 'domainId' | 'startedAt' | 'status' | 'duration' | 'revenue' | RollupDimension>;

/** The time zones of a call's domain before and after a change (two when the call moved domains). */
export interface CallZones {
  before: string;
  after: string;
}

interface Share {
  domainId: string;
  day: string;
  status: CallStatus;
  duration: number;
  revenueCents: number;
  /** Where the call is counted in its day's document: `statuses`, `by.destination.0123456789`... */
  places: string[];
}

/** A filter's value as a field name: MongoDB field names take no `.` and no leading `$`. */
export function rollupKey(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E');
}

/** What one call adds to its day: nothing while its outcome is unknown (status null). */
function shareOf(call: Counted | null, timeZone: string): Share | null {
  if (!call || call.status === null) return null;
  const places = ['statuses', ...ROLLUP_DIMENSIONS.flatMap((d) => (call[d] ? [`by.${d}.${rollupKey(call[d])}`] : []))];
  return { domainId: call.domainId, day: localTime(call.startedAt, timeZone).day, status: call.status, duration: call.duration, revenueCents: Math.round(call.revenue * 100), places };
}

function sameCounters(a: Share, b: Share): boolean {
  return a.domainId === b.domainId && a.day === b.day && a.status === b.status && a.places.join() === b.places.join();
}

/** Days sort as their keys do, so a range of days is a range of `_id`: the one range every server
 * reads in time proportional to what it returns (SecantusDB scans a secondary index's whole range). */
export const dayKey = (domainId: string, day: string) => `${domainId}|${day}`;

/** Every `_id` of a domain's summaries, `<domainId>|...`: a range ('}' follows '|'). */
export const domainKeys = (domainId: string) => keysUnder(`${domainId}|`);

export class CallDays {
  constructor(private readonly c: DataCollections & TelephonyCollections) {}

  /** Moves a call's share from what it was (`before`, null for a new call) to what it is now. */
  async record(before: Counted | null, after: Counted, zones: CallZones): Promise<void> {
    const was = before && shareOf(before, zones.before);
    const now = shareOf(after, zones.after);
    if (was && now && sameCounters(was, now)) {
      await this.add({ ...now, duration: now.duration - was.duration, revenueCents: now.revenueCents - was.revenueCents }, 0);
      return;
    }
    await Promise.all([was && this.add({ ...was, duration: -was.duration, revenueCents: -was.revenueCents }, -1), now && this.add(now, 1)]);
  }

  /** The per-status totals of each day of a range that has calls: all of the domain's, or those
   * matching one value of a dimension. Only those totals are read, however many values a day counts. */
  async read(domainId: string, startDay: string, endDay: string, filter: { dimension: RollupDimension; value: string } | null): Promise<Map<string, StatusTotals>> {
    const place = filter ? `by.${filter.dimension}.${rollupKey(filter.value)}` : 'statuses';
    const docs = await this.readDays(domainId, startDay, endDay, [place]);
    return new Map(docs.map((doc) => [doc.day, totalsAt(doc, place)]));
  }

  /** The documents of each day of a range that has calls, with only the fields asked for, oldest first. */
  async readDays(domainId: string, startDay: string, endDay: string, fields: string[]): Promise<CallDayDoc[]> {
    const projection = Object.fromEntries([['day', 1], ...fields.map((f) => [f, 1])]);
    return this.c.callDays.find({ _id: { $gte: dayKey(domainId, startDay), $lte: dayKey(domainId, endDay) } }, { projection, sort: { _id: 1 } }).toArray();
  }

  /** Recomputes a domain's rollups from its calls. */
  async rebuild(domainId: string, timeZone: string): Promise<number> {
    const days = new Map<string, CallDayDoc>();
    const projection = { domainId: 1, startedAt: 1, status: 1, duration: 1, revenue: 1, ...Object.fromEntries(ROLLUP_DIMENSIONS.map((d) => [d, 1])) };
    for await (const call of this.c.calls.find({ domainId, status: { $ne: null }, ...RECEIVED }, { projection, batchSize: 10_000 })) {
      const share = shareOf(call, timeZone)!;
      const doc = days.get(share.day) ?? { _id: dayKey(domainId, share.day), domainId, day: share.day, statuses: {} };
      days.set(share.day, doc);
      for (const place of share.places) {
        const total = (totalsAt(doc, place)[share.status] ??= { calls: 0, duration: 0, revenueCents: 0 });
        total.calls++;
        total.duration += share.duration;
        total.revenueCents += share.revenueCents;
      }
    }
    await this.c.callDays.deleteMany({ _id: domainKeys(domainId) });
    const docs = [...days.values()];
    for (let i = 0; i < docs.length; i += 1000) await this.c.callDays.insertMany(docs.slice(i, i + 1000));
    return docs.length;
  }

  private async add(share: Share, calls: number): Promise<void> {
    const inc: Record<string, number> = {};
    for (const place of share.places) {
      const field = `${place}.${share.status}`;
      Object.assign(inc, { [`${field}.calls`]: calls, [`${field}.duration`]: share.duration, [`${field}.revenueCents`]: share.revenueCents });
    }
    await this.c.callDays.updateOne({ _id: dayKey(share.domainId, share.day) }, { $inc: inc, $setOnInsert: { domainId: share.domainId, day: share.day } }, { upsert: true });
  }
}

/** The per-status totals at a place (`statuses`, `by.<dimension>.<key>`) of a day's document, made when missing. */
function totalsAt(doc: CallDayDoc, place: string): StatusTotals {
  if (place === 'statuses') return doc.statuses;
  const [, dimension, key] = place.split('.') as [string, RollupDimension, string];
  const byDimension = ((doc.by ??= {})[dimension] ??= {});
  // A source or keyword named `constructor` is a key like any other.
  return ownEntry(byDimension, key) ?? (byDimension[key] = {});
}
