// Daily rollups of a domain's calls, kept at write time (MongoDB's computed pattern): per local day
// of the domain and per status, the calls, their duration and their revenue in cents. The data API
// reads them for totals, daily rows and the day a page starts on, instead of counting a year of calls.
//
// A call's write and its rollup's `$inc` are two steps: `rebuild` recomputes a domain's rollups
// from its calls, after a crash between the two or a change of the domain's time zone.
import type { CallStatus } from '@ringtrail/shared';
import type { CallDayDoc, CallDoc, Collections } from '../db/collections.ts';
import { localTime } from '../domains/time-zone.ts';

type Counted = Pick<CallDoc, 'domainId' | 'startedAt' | 'status' | 'duration' | 'revenue'>;

interface Share {
  domainId: string;
  day: string;
  status: CallStatus;
  duration: number;
  revenueCents: number;
}

/** What one call adds to its day: nothing while its outcome is unknown (status null). */
function shareOf(call: Counted | null, timeZone: string): Share | null {
  if (!call || call.status === null) return null;
  return { domainId: call.domainId, day: localTime(call.startedAt, timeZone).day, status: call.status, duration: call.duration, revenueCents: Math.round(call.revenue * 100) };
}

export const dayKey = (domainId: string, day: string) => `${domainId}|${day}`;

export class CallDays {
  constructor(private readonly c: Collections) {}

  /** Moves a call's share from what it was (`before`, null for a new call) to what it is now. */
  async record(before: Counted | null, after: Counted): Promise<void> {
    const was = before && shareOf(before, await this.timeZoneOf(before.domainId));
    const now = shareOf(after, await this.timeZoneOf(after.domainId));
    if (was && now && was.domainId === now.domainId && was.day === now.day && was.status === now.status) {
      await this.add({ ...now, duration: now.duration - was.duration, revenueCents: now.revenueCents - was.revenueCents }, 0);
      return;
    }
    await Promise.all([was && this.add({ ...was, duration: -was.duration, revenueCents: -was.revenueCents }, -1), now && this.add(now, 1)]);
  }

  /** The domain's rollups of a range of local days, oldest first. */
  read(domainId: string, startDay: string, endDay: string): Promise<CallDayDoc[]> {
    return this.c.callDays.find({ domainId, day: { $gte: startDay, $lte: endDay } }).sort({ day: 1 }).toArray();
  }

  /** Recomputes a domain's rollups from its calls. */
  async rebuild(domainId: string, timeZone: string): Promise<number> {
    const days = new Map<string, CallDayDoc>();
    const cursor = this.c.calls.find({ domainId, status: { $ne: null } }, { projection: { domainId: 1, startedAt: 1, status: 1, duration: 1, revenue: 1 }, batchSize: 10_000 });
    for await (const call of cursor) {
      const share = shareOf(call, timeZone)!;
      const doc = days.get(share.day) ?? { _id: dayKey(domainId, share.day), domainId, day: share.day, statuses: {} };
      days.set(share.day, doc);
      const total = (doc.statuses[share.status] ??= { calls: 0, duration: 0, revenueCents: 0 });
      total.calls++;
      total.duration += share.duration;
      total.revenueCents += share.revenueCents;
    }
    await this.c.callDays.deleteMany({ domainId });
    const docs = [...days.values()];
    for (let i = 0; i < docs.length; i += 1000) await this.c.callDays.insertMany(docs.slice(i, i + 1000));
    return docs.length;
  }

  private async add(share: Share, calls: number): Promise<void> {
    const field = `statuses.${share.status}`;
    await this.c.callDays.updateOne(
      { _id: dayKey(share.domainId, share.day) },
      { $inc: { [`${field}.calls`]: calls, [`${field}.duration`]: share.duration, [`${field}.revenueCents`]: share.revenueCents }, $setOnInsert: { domainId: share.domainId, day: share.day } },
      { upsert: true },
    );
  }

  private async timeZoneOf(domainId: string): Promise<string> {
    return (await this.c.domains.findOne({ _id: domainId }, { projection: { timeZone: 1 } }))!.timeZone;
  }
}
