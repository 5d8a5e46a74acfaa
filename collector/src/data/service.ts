// The data service: a domain's calls and SMS of a date range, page by page or as daily totals.
// Knows nothing of HTTP. Days are the domain's time zone's; records come oldest first, ties by id,
// so reading pages 1..n returns each record once.
import type { CallRecord, DailyRow, DataAnswer, SmsRecord } from '@ringtrail/shared';
import type { Collection, Filter, WithId } from 'mongodb';
import type { CallDoc, Collections, DomainDoc, SmsDoc } from '../db/collections.ts';
import { localTime, nextDay, startOfLocalDay } from '../domains/time-zone.ts';
import { callRecord, smsRecord } from './records.ts';
import type { DataRequest } from './request.ts';

export class DataService {
  constructor(private readonly c: Collections) {}

  async query(domain: DomainDoc, req: DataRequest): Promise<DataAnswer> {
    if (req.type === 'sms') return this.sms(domain, req);
    return req.groupByDay ? this.daily(domain, req) : this.calls(domain, req);
  }

  private async calls(domain: DomainDoc, req: DataRequest): Promise<DataAnswer> {
    return paged(this.c.calls, callFilter(domain, req), 'startedAt', req, (call) => callRecord(call, domain));
  }

  /** Every day of the range, days without calls included. */
  private async daily(domain: DomainDoc, req: DataRequest): Promise<DataAnswer> {
    const rows = new Map<string, DailyRow>();
    for (let day = req.startDay; day <= req.endDay; day = nextDay(day)) rows.set(day, { date: day, calls: 0, duration: 0, revenue: 0 });
    const cursor = this.c.calls.find(callFilter(domain, req), { projection: { startedAt: 1, duration: 1, revenue: 1 }, batchSize: 5000 });
    for await (const call of cursor) {
      const row = rows.get(localTime(call.startedAt, domain.timeZone).day);
      if (!row) continue;
      row.calls++;
      row.duration += call.duration;
      row.revenue += call.revenue;
    }
    return { status: 'OK', results: [...rows.values()].map((r) => ({ ...r, revenue: Math.round(r.revenue * 100) / 100 })) };
  }

  private async sms(domain: DomainDoc, req: DataRequest): Promise<DataAnswer> {
    const filter: Filter<SmsDoc> = {
      domainId: domain._id,
      sentAt: rangeOf(domain, req),
      ...(req.trackingPhone ? { trackingNumber: req.trackingPhone } : {}),
      ...(req.callerPhone ? { caller: req.callerPhone } : {}),
    };
    return paged(this.c.sms, filter, 'sentAt', req, (s) => smsRecord(s, domain));
  }
}

/** From the start day's first local instant to the instant after the end day's last. */
function rangeOf(domain: DomainDoc, req: DataRequest): { $gte: Date; $lt: Date } {
  return { $gte: startOfLocalDay(req.startDay, domain.timeZone), $lt: startOfLocalDay(nextDay(req.endDay), domain.timeZone) };
}

/** Calls whose outcome is known: a call still ringing (status null) shows once it ends. */
function callFilter(domain: DomainDoc, req: DataRequest): Filter<CallDoc> {
  return {
    domainId: domain._id,
    startedAt: rangeOf(domain, req),
    status: req.statuses ? { $in: req.statuses } : { $ne: null },
    ...(req.phone ? { destination: req.phone } : {}),
    ...(req.trackingPhone ? { trackingNumber: req.trackingPhone } : {}),
    ...(req.callerPhone ? { caller: req.callerPhone } : {}),
    ...(req.offlineDescription ? { offlineDescription: req.offlineDescription } : {}),
  };
}

/** One page of a range, oldest first (ties by id), with the total over all pages. */
async function paged<T extends CallDoc | SmsDoc>(
  col: Collection<T>,
  filter: Filter<T>,
  timeField: 'startedAt' | 'sentAt',
  req: DataRequest,
  record: (doc: WithId<T>) => CallRecord | SmsRecord,
): Promise<DataAnswer> {
  const [total, docs] = await Promise.all([
    col.countDocuments(filter),
    col.find(filter).sort({ [timeField]: 1, _id: 1 }).skip((req.page - 1) * req.limit).limit(req.limit).toArray(),
  ]);
  const hasMore = req.page * req.limit < total;
  return { status: 'OK', total_results: total, ...(hasMore ? { next_page: req.page + 1 } : {}), results: docs.map(record) };
}
