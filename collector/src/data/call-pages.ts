// The bucket pattern for the data API's pages: a domain's calls of one UTC hour in one document,
// each kept rendered as the data API shows it, but for the two fields its domain's settings decide
// (the start in its time zone, the caller as its privacy lets). A page of 5,000 calls reads a few
// dozen buckets by `_id` rather than 5,000 calls through an index: on SecantusDB, at a million
// calls, the latter takes about a second.
//
// Every call write puts the call's entry in its hour's bucket at the call's revision; an entry of
// an older revision, arriving late, is refused by a version guard. A call moved to another hour
// leaves a tombstone in its old bucket, so that a late write of its old revision cannot bring it
// back there. `rebuild` recomputes a domain's buckets from its calls (after a crash between the two).
import type { CallStatus } from '@ringtrail/shared';
import type { CallDoc, CallPageDoc, Collections, DomainDoc, PageEntry, RollupDimension } from '../db/collections.ts';
import { callRecordBody, callRecordHead } from './records.ts';

const HOUR_MS = 3_600_000;
const INSERT_BATCH = 100;

const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
/** Hours sort as their keys do (ISO times of one length), so the buckets of a page are a range of `_id`. */
const bucketKey = (domainId: string, hour: Date) => `${domainId}|${hour.toISOString()}`;

function entryOf(call: CallDoc): PageEntry {
  return {
    t: call.startedAt.getTime(),
    s: call.status,
    c: call.caller,
    r: JSON.stringify(callRecordBody(call)),
    v: call.rev,
    n: call.trackingNumber,
    d: call.destination,
    o: call.offlineDescription,
  };
}

/** Where each rollup dimension's value is in an entry. */
const ENTRY_FIELD: Record<RollupDimension, 'n' | 'd' | 'o'> = { trackingNumber: 'n', destination: 'd', offlineDescription: 'o' };

/** A page's one filter besides status: a rollup dimension and the value asked for. */
export interface DimensionFilter {
  dimension: RollupDimension;
  value: string;
}

export class CallPages {
  constructor(private readonly c: Collections) {}

  /** Puts the call as it is now in its hour's bucket; `before`, the call as it was, to leave its old hour. */
  async record(before: CallDoc | null, after: CallDoc): Promise<void> {
    const moved = before && (before.domainId !== after.domainId || hourOf(before.startedAt).getTime() !== hourOf(after.startedAt).getTime());
    await Promise.all([
      this.put(after.domainId, hourOf(after.startedAt), after._id, entryOf(after)),
      moved && this.put(before.domainId, hourOf(before.startedAt), after._id, { v: after.rev, gone: true }),
    ]);
  }

  /** The calls of [from, to) whose status is one of `statuses` (and that match `filter`), oldest first
   * (ties by id): `limit` of them after `skip`, each as the JSON of its data API record. */
  async page(domain: DomainDoc, from: Date, to: Date, statuses: readonly CallStatus[], filter: DimensionFilter | null, skip: number, limit: number): Promise<string[]> {
    const buckets = await this.c.callPages.find({ _id: { $gte: bucketKey(domain._id, hourOf(from)), $lt: bucketKey(domain._id, to) } }).toArray();
    const wanted = new Set<CallStatus | null>(statuses);
    const field = filter && ENTRY_FIELD[filter.dimension];
    const rows: { id: number; entry: PageEntry }[] = [];
    for (const bucket of buckets) {
      for (const [id, entry] of Object.entries(bucket.calls)) {
        if ('gone' in entry || !wanted.has(entry.s) || entry.t < from.getTime() || entry.t >= to.getTime()) continue;
        if (field && entry[field] !== filter.value) continue;
        rows.push({ id: Number(id), entry });
      }
    }
    rows.sort((a, b) => a.entry.t - b.entry.t || a.id - b.id);
    // The head's two fields first, as callRecord orders them, then the rendered rest.
    return rows.slice(skip, skip + limit).map(({ entry }) => `${JSON.stringify(callRecordHead(new Date(entry.t), entry.c, domain)).slice(0, -1)},${entry.r.slice(1)}`);
  }

  /** Recomputes a domain's buckets from its calls, an hour at a time. */
  async rebuild(domainId: string): Promise<number> {
    await this.c.callPages.deleteMany({ _id: { $gte: `${domainId}|`, $lt: `${domainId}}` } });
    const cursor = this.c.calls.find({ domainId }, { batchSize: 10_000 }).sort({ startedAt: 1, _id: 1 }).hint({ domainId: 1, startedAt: 1, _id: 1 });
    let done: CallPageDoc[] = [];
    let current: CallPageDoc | null = null;
    let count = 0;
    for await (const call of cursor) {
      const hour = hourOf(call.startedAt);
      if (current?.hour.getTime() !== hour.getTime()) {
        if (current) done.push(current);
        if (done.length >= INSERT_BATCH) {
          await this.c.callPages.insertMany(done);
          done = [];
        }
        current = { _id: bucketKey(domainId, hour), domainId, hour, calls: {} };
        count++;
      }
      current.calls[call._id] = entryOf(call);
    }
    if (current) done.push(current);
    if (done.length > 0) await this.c.callPages.insertMany(done);
    return count;
  }

  /** Sets the call's entry unless the bucket holds the same or a later revision of it. A missing
   * bucket is made by a plain upsert, then the guarded update runs again: it never races an insert. */
  private async put(domainId: string, hour: Date, callId: number, entry: CallPageDoc['calls'][string]): Promise<void> {
    const _id = bucketKey(domainId, hour);
    const path = `calls.${callId}`;
    const guarded = () => this.c.callPages.updateOne({ _id, [`${path}.v`]: { $not: { $gte: entry.v } } }, { $set: { [path]: entry } });
    if ((await guarded()).matchedCount > 0) return;
    await this.c.callPages.updateOne({ _id }, { $setOnInsert: { domainId, hour, calls: {} } }, { upsert: true });
    await guarded();
  }
}
