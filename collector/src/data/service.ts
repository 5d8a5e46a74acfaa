// The data service: a domain's calls and SMS of a date range, page by page or as daily totals.
// Knows nothing of HTTP. Days are the domain's time zone's; records come oldest first, ties by id,
// so reading pages 1..n returns each record once.
//
// Calls filtered by status and at most one of tracking number, destination or offline description
// are counted from the daily rollups (call-days.ts); a page finds the days it spans from their
// counts and reads those days' hourly buckets (call-pages.ts): a page costs the same whatever its
// number. A caller filter reads the caller's calls by `_id` (caller-calls.ts); two other filters at
// once read the calls through an index of the first.
import { CALL_STATUSES, type CallRecord, type DailyRow, type DataAnswer, type FormRecord, type SmsRecord } from '@ringtrail/shared';
import type { Collection, Filter, WithId } from 'mongodb';
import { directionFilter } from '../telephony/directions.ts';
import { chunksOf } from '../db/batched.ts';
import type { CallDoc, SmsDoc, TelephonyCollections } from '../telephony/documents.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { localDaysBetween, localTime, nextDay, startOfLocalDay } from '../domains/time-zone.ts';
import { CallDays } from './call-days.ts';
import { CallPages, type DimensionFilter, type RecordParts } from './call-pages.ts';
import { CallerCalls } from './caller-calls.ts';
import { callRecord, formRecord, smsRecord } from './records.ts';
import { transcriptTexts } from './transcript-texts.ts';
import type { TranscriptCollections } from '../transcripts/documents.ts';
import type { FormDoc, FormCollections } from '../forms/documents.ts';
import type { DataRequest } from './request.ts';
import type { DataCollections } from './documents.ts';

export class DataService {
  private readonly days: CallDays;
  private readonly pages: CallPages;
  private readonly callers: CallerCalls;

  constructor(private readonly c: DataCollections & TelephonyCollections & FormCollections & TranscriptCollections) {
    this.days = new CallDays(c);
    this.pages = new CallPages(c);
    this.callers = new CallerCalls(c);
  }

  /** `linkBase`: where the collector is reached (PUBLIC_URL, or the request's origin), for recordings' links. */
  async query(domain: DomainDoc, req: DataRequest, linkBase: string): Promise<DataAnswer | RenderedPage> {
    if (req.type === 'sms') return this.sms(domain, req);
    if (req.type === 'forms') return paged(this.c.forms, { domainId: domain._id, submittedAt: rangeOf(domain, req) }, 'submittedAt', req, async (forms) => forms.map((form) => formRecord(form, domain)));
    // The calls placed from the back end: read from the range's calls (no summary counts them).
    if (req.direction === 'outbound') return paged(this.c.calls, callFilter(domain, req), 'startedAt', req, (calls) => this.callRecords(calls, domain, linkBase), { domainId: 1, startedAt: 1, _id: 1 });
    if (req.callerPhone) return this.byCaller(domain, req, linkBase);
    const filter = dimensionFilter(req);
    if (filter === 'index') {
      const index = filterIndex(req);
      return req.groupByDay ? this.dailyByScan(domain, req, index) : paged(this.c.calls, callFilter(domain, req), 'startedAt', req, (calls) => this.callRecords(calls, domain, linkBase), index);
    }
    const days = await this.countedDays(domain, req, filter);
    return req.groupByDay ? { status: 'OK', results: days.map(roundedRow) } : this.pageOfCalls(domain, req, days, filter, linkBase);
  }

  /** The call of this domain by its id as the path wrote it, with its recording; null when none. */
  async recordedCall(domain: DomainDoc, callId: string): Promise<Pick<CallDoc, '_id' | 'recording'> | null> {
    const id = Number(callId);
    return /^\d{1,15}$/.test(callId) ? this.c.calls.findOne({ _id: id, domainId: domain._id }, { projection: { recording: 1 } }) : null;
  }

  /** A caller's calls: the ids of their entries of the range and statuses, then the other filters
   * checked on the calls themselves. The work is that caller's calls in the range, however many calls
   * the domain has. */
  private async byCaller(domain: DomainDoc, req: DataRequest, linkBase: string): Promise<DataAnswer> {
    let ids = await this.callers.ids(domain._id, req.callerPhone!, rangeOf(domain, req), req.statuses);
    const others = otherFilters(req);
    if (req.groupByDay) {
      const rows = emptyDays(req);
      for (const call of await this.callsByIds(ids, others, { startedAt: 1, duration: 1, revenue: 1 })) addToDay(rows, call, domain);
      return { status: 'OK', results: [...rows.values()].map(roundedRow) };
    }
    if (Object.keys(others).length) ids = (await this.callsByIds(ids, others, { _id: 1 })).map((call) => call._id);
    const pageIds = ids.slice((req.page - 1) * req.limit, req.page * req.limit);
    const calls = await this.callsByIds(pageIds, {}, {});
    return answerPage(req, ids.length, await this.callRecords(calls, domain, linkBase));
  }

  /** Calls as records, with the texts of those that have a transcript. */
  private async callRecords(calls: CallDoc[], domain: DomainDoc, linkBase: string): Promise<CallRecord[]> {
    const texts = await transcriptTexts(this.c, calls.filter((call) => call.transcript?.status === 'ready').map((call) => call._id));
    return calls.map((call) => callRecord(call, domain, linkBase, texts.get(call._id) ?? null));
  }

  /** The calls of these ids that match `filter`, oldest first, read by `_id` a chunk at a time (an empty projection: whole). */
  private async callsByIds(ids: number[], filter: Filter<CallDoc>, projection: Record<string, 1>): Promise<CallDoc[]> {
    const calls: CallDoc[] = [];
    for (const some of chunksOf(ids, ID_CHUNK)) {
      calls.push(...(await this.c.calls.find({ ...filter, _id: { $in: some } }, { projection: Object.keys(projection).length ? { ...projection, startedAt: 1 } : {} }).toArray()));
    }
    return calls.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || a._id - b._id);
  }

  /** Every day of the range, days without calls included, from the rollups of the statuses (and filter) asked for. */
  private async countedDays(domain: DomainDoc, req: DataRequest, filter: DimensionFilter | null): Promise<DailyRow[]> {
    const stored = await this.days.read(domain._id, req.startDay, req.endDay, filter);
    const statuses = req.statuses ?? CALL_STATUSES;
    const rows: DailyRow[] = [];
    for (let day = req.startDay; day <= req.endDay; day = nextDay(day)) {
      const row = { date: day, calls: 0, duration: 0, revenue: 0 };
      for (const status of statuses) {
        const total = stored.get(day)?.[status];
        if (!total) continue;
        row.calls += total.calls;
        row.duration += total.duration;
        row.revenue += total.revenueCents;
      }
      rows.push({ ...row, revenue: row.revenue / 100 });
    }
    return rows;
  }

  /** The page's first record is the `skip`-th of the day it falls on; its last is on the day the
   * running count reaches `skip + limit`. The query reads those days alone, however deep the page. */
  private async pageOfCalls(domain: DomainDoc, req: DataRequest, days: DailyRow[], filter: DimensionFilter | null, linkBase: string): Promise<RenderedPage> {
    const total = days.reduce((n, d) => n + d.calls, 0);
    const span = pageSpan(days, (req.page - 1) * req.limit, req.limit);
    const from = span && startOfLocalDay(span.firstDay, domain.timeZone);
    const to = span && startOfLocalDay(nextDay(span.lastDay), domain.timeZone);
    const results = span ? await this.pages.page(domain, from!, to!, req.statuses ?? CALL_STATUSES, filter, span.skip, req.limit, linkBase, (ids) => transcriptTexts(this.c, ids)) : [];
    return renderedPage(req, total, results);
  }

  /** Daily rows of calls filtered by caller, or by two filters at once: read through a filter's index. */
  private async dailyByScan(domain: DomainDoc, req: DataRequest, index: IndexHint): Promise<DataAnswer> {
    const rows = emptyDays(req);
    const cursor = this.c.calls.find(callFilter(domain, req), { projection: { startedAt: 1, duration: 1, revenue: 1 }, batchSize: 5000, hint: index });
    for await (const call of cursor) addToDay(rows, call, domain);
    return { status: 'OK', results: [...rows.values()].map(roundedRow) };
  }

  private async sms(domain: DomainDoc, req: DataRequest): Promise<DataAnswer> {
    const filter: Filter<SmsDoc> = {
      domainId: domain._id,
      sentAt: rangeOf(domain, req),
      ...(req.trackingPhone ? { trackingNumber: req.trackingPhone } : {}),
      ...(req.callerPhone ? { caller: req.callerPhone } : {}),
      blocked: { $ne: true }, // an SMS from a blocked caller is kept, never listed nor counted
    };
    return paged(this.c.sms, filter, 'sentAt', req, async (list) => list.map((s) => smsRecord(s, domain)));
  }
}

/** From the start day's first local instant to the instant after the end day's last. */
function rangeOf(domain: DomainDoc, req: DataRequest): { $gte: Date; $lt: Date } {
  return localDaysBetween(req.startDay, req.endDay, domain.timeZone);
}

/** Calls whose outcome is known: a call still ringing (status null) shows once it ends. */
function callFilter(domain: DomainDoc, req: DataRequest): Filter<CallDoc> {
  return { domainId: domain._id, startedAt: rangeOf(domain, req), status: req.statuses ? { $in: req.statuses } : { $ne: null }, ...otherFilters(req), ...directionFilter(req.direction) };
}

/** The filters on a call's numbers and description. */
function otherFilters(req: DataRequest): Filter<CallDoc> {
  return {
    ...(req.phone ? { destination: req.phone } : {}),
    ...(req.trackingPhone ? { trackingNumber: req.trackingPhone } : {}),
    ...(req.offlineDescription ? { offlineDescription: req.offlineDescription } : {}),
  };
}

/** The calls a chunk of `_id`s reads at once. */
const ID_CHUNK = 5000;

function emptyDays(req: DataRequest): Map<string, DailyRow> {
  const rows = new Map<string, DailyRow>();
  for (let day = req.startDay; day <= req.endDay; day = nextDay(day)) rows.set(day, { date: day, calls: 0, duration: 0, revenue: 0 });
  return rows;
}

function addToDay(rows: Map<string, DailyRow>, call: Pick<CallDoc, 'startedAt' | 'duration' | 'revenue'>, domain: DomainDoc): void {
  const row = rows.get(localTime(call.startedAt, domain.timeZone).day);
  if (!row) return;
  row.calls++;
  row.duration += call.duration;
  row.revenue += call.revenue;
}

/** The days a page of `limit` records from record `offset` spans, and how many records of its first day
 * come before it; null past the last record. Days are the range's, oldest first, with their counts. */
export function pageSpan(days: DailyRow[], offset: number, limit: number): { firstDay: string; lastDay: string; skip: number } | null {
  let before = 0;
  let first: { day: string; skip: number } | null = null;
  for (const { date, calls } of days) {
    if (!first && offset < before + calls) first = { day: date, skip: offset - before };
    before += calls;
    if (first && before >= offset + limit) return { firstDay: first.day, lastDay: date, skip: first.skip };
  }
  return first && { firstDay: first.day, lastDay: days.at(-1)!.date, skip: first.skip };
}

type IndexHint = Record<string, 1>;

/** How the summaries can answer a request without a caller: with no filter but status, with one
 * filter they count by, or not at all (`index`: two filters at once, read through an index). */
function dimensionFilter(req: DataRequest): DimensionFilter | null | 'index' {
  const asked: DimensionFilter[] = [];
  if (req.trackingPhone) asked.push({ dimension: 'trackingNumber', value: req.trackingPhone });
  if (req.phone) asked.push({ dimension: 'destination', value: req.phone });
  if (req.offlineDescription) asked.push({ dimension: 'offlineDescription', value: req.offlineDescription });
  if (asked.length > 1) return 'index';
  return asked[0] ?? null;
}

/** The index of the calls a filter the summaries do not answer reads through. Named as a hint: a
 * planner may otherwise take another index that starts with domainId and scan the whole domain. */
function filterIndex(req: DataRequest): IndexHint {
  if (req.trackingPhone) return { trackingNumber: 1, startedAt: 1, _id: 1 };
  if (req.phone) return { domainId: 1, destination: 1, startedAt: 1, _id: 1 };
  return { domainId: 1, offlineDescription: 1, startedAt: 1, _id: 1 };
}

function roundedRow(row: DailyRow): DailyRow {
  return { ...row, revenue: Math.round(row.revenue * 100) / 100 };
}

/** A page whose records are JSON already (from the page buckets): the route sends its bytes as they are. */
export class RenderedPage {
  constructor(readonly body: Buffer) {}
}

const COMMA = Buffer.from(',');

/** The page's answer as JSON: the same envelope as answerPage's, the rendered records put in. */
function renderedPage(req: DataRequest, total: number, records: RecordParts[]): RenderedPage {
  const envelope = JSON.stringify(answerPage(req, total, [])); // ends with `"results":[]}`
  const parts: Buffer[] = [Buffer.from(envelope.slice(0, -2))];
  records.forEach((record, i) => {
    if (i > 0) parts.push(COMMA);
    for (const part of record) parts.push(typeof part === 'string' ? Buffer.from(part) : part);
  });
  parts.push(Buffer.from(']}'));
  return new RenderedPage(Buffer.concat(parts));
}

function answerPage(req: DataRequest, total: number, results: (CallRecord | SmsRecord | FormRecord)[]): DataAnswer {
  const hasMore = req.page * req.limit < total;
  return { status: 'OK', total_results: total, ...(hasMore ? { next_page: req.page + 1 } : {}), results };
}

/** One page of a range, oldest first (ties by id), with the total over all pages, counted through the filter's index. */
async function paged<T extends CallDoc | SmsDoc | FormDoc>(
  col: Collection<T>,
  filter: Filter<T>,
  timeField: 'startedAt' | 'sentAt' | 'submittedAt',
  req: DataRequest,
  records: (docs: WithId<T>[]) => Promise<(CallRecord | SmsRecord | FormRecord)[]>,
  hint?: IndexHint,
): Promise<DataAnswer> {
  const [total, docs] = await Promise.all([
    col.countDocuments(filter, hint ? { hint } : {}),
    col.find(filter, hint ? { hint } : {}).sort({ [timeField]: 1, _id: 1 }).skip((req.page - 1) * req.limit).limit(req.limit).toArray(),
  ]);
  return answerPage(req, total, await records(docs));
}
