// The calls of each caller, in time order, as documents whose `_id` is `<domainId>|<caller>|<start>|<call id>`
// (numbers zero-padded, so that `_id` order is time order, ties by id): the data API's caller filter
// reads a range of `_id`, which every engine does fast. Through a secondary index on the calls, the
// embedded SecantusDB reads the whole index whatever the bounds (docs/benchmarks.md): about 0.3 to
// 1 s at a million calls. Kept at every call write (call-summaries.ts) at the call's revision: an
// entry of an older revision, arriving late, is refused; a call moved to another start leaves a
// tombstone (no status) under its old key, so that a late write cannot bring it back there. An
// erased caller's entries are deleted outright: their number is in the key.
import type { CallStatus } from '@ringtrail/shared';
import { isDuplicateKey, putAtRevision } from '../db/writes.ts';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import { domainKeys } from './call-days.ts';
import { padded } from '../db/key-ranges.ts';
import { inBatches, mapped } from '../db/batched.ts';
import type { DataCollections } from './documents.ts';
import { RECEIVED } from '../telephony/directions.ts';

type Entry = Pick<CallDoc, '_id' | 'domainId' | 'caller' | 'startedAt' | 'status' | 'rev'>;

const callerPrefix = (domainId: string, caller: string) => `${domainId}|${caller}|`;

/** The key of a call's entry; null for an anonymous caller. */
export function callerCallKey(call: Pick<Entry, '_id' | 'domainId' | 'caller' | 'startedAt'>): string | null {
  return call.caller ? `${callerPrefix(call.domainId, call.caller)}${padded(call.startedAt.getTime(), 13)}|${padded(call._id, 15)}` : null;
}

/** The call id at the end of an entry's key. */
const idOfKey = (key: string) => Number(key.slice(key.lastIndexOf('|') + 1));

export class CallerCalls {
  constructor(private readonly c: DataCollections & TelephonyCollections) {}

  async record(before: Entry | null, after: Entry): Promise<void> {
    const was = before && callerCallKey(before);
    const now = callerCallKey(after);
    if (was === now && before?.status === after.status) return;
    await Promise.all([
      was && was !== now && (now ? putAtRevision(this.c.callerCalls, was, after.rev, {}, ['status']) : this.c.callerCalls.deleteOne({ _id: was })),
      now && putAtRevision(this.c.callerCalls, now, after.rev, { status: after.status }),
    ]);
  }

  /** The ids of a caller's calls started in `range`, oldest first (ties by id): of these statuses, or
   * every call whose outcome is known. */
  async ids(domainId: string, caller: string, range: { $gte: Date; $lt: Date }, statuses?: readonly CallStatus[]): Promise<number[]> {
    const prefix = callerPrefix(domainId, caller);
    const entries = this.c.callerCalls.find(
      { _id: { $gte: `${prefix}${padded(range.$gte.getTime(), 13)}`, $lt: `${prefix}${padded(range.$lt.getTime(), 13)}` }, status: statuses ? { $in: [...statuses] } : { $ne: null } },
      { projection: { _id: 1 }, sort: { _id: 1 } },
    );
    const ids: number[] = [];
    for await (const { _id } of entries) ids.push(idOfKey(_id));
    return ids;
  }

  /** Puts the entries of a domain's calls again (a domain whose calls were stored before the entries were kept). */
  async rebuild(domainId: string): Promise<number> {
    await this.c.callerCalls.deleteMany({ _id: domainKeys(domainId) });
    const calls = this.c.calls.find({ domainId, caller: { $ne: null }, ...RECEIVED }, { projection: { domainId: 1, caller: 1, startedAt: 1, status: 1, rev: 1 }, batchSize: 5000 });
    const entries = mapped(calls, (call) => ({ _id: callerCallKey(call)!, rev: call.rev, status: call.status }));
    return inBatches(entries, 5000, (batch) =>
      this.c.callerCalls.insertMany(batch, { ordered: false }).catch((err: unknown) => {
        if (!isDuplicateKey(err)) throw err;
      }),
    );
  }
}
