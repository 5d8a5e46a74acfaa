// First-time callers (ours): a call whose caller never called the domain before. Decided once, at
// the call's first report, by claiming the caller for the domain with an insert on
// `<domainId>|<number>`: of two simultaneous first calls of one new caller exactly one wins. The
// callers of calls stored before first calls were kept are claimed once, by the migration
// (notePastCallers), so that the check is one `_id` and never a read of the caller's calls.
import type { AnyBulkWriteOperation } from 'mongodb';
import { isDuplicateKey } from '../db/writes.ts';
import { inBatches, mapped } from '../db/batched.ts';
import type { CallerDoc, TelephonyCollections } from './documents.ts';

export class FirstCalls {
  constructor(private readonly c: TelephonyCollections) {}

  /** Whether call `callId` from `caller` is the caller's first to the domain; null for an anonymous caller. */
  async isFirst(domainId: string, caller: string | null, callId: number, at: Date): Promise<boolean | null> {
    if (!caller) return null;
    const _id = `${domainId}|${caller}`;
    try {
      await this.c.callers.insertOne({ _id, domainId, firstCallId: callId, at });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // Another report of this same call (a retry, a race of its reports) claimed it already.
      return (await this.c.callers.findOne({ _id }, { projection: { firstCallId: 1 } }))?.firstCallId === callId;
    }
    return true;
  }

  /** Claims the callers of a domain's calls stored before first calls were kept: none of their later
   * calls is a first. */
  async notePastCallers(domainId: string): Promise<void> {
    const past = this.c.calls.find({ domainId, firstCall: { $exists: false }, caller: { $ne: null }, direction: { $ne: 'outbound' } }, { projection: { caller: 1, startedAt: 1 }, batchSize: 5000 });
    const claims = mapped(past, (call): AnyBulkWriteOperation<CallerDoc> => ({ updateOne: { filter: { _id: `${domainId}|${call.caller}` }, update: { $setOnInsert: { domainId, firstCallId: call._id, at: call.startedAt } }, upsert: true } }));
    await inBatches(claims, 1000, (batch) => this.c.callers.bulkWrite(batch, { ordered: false }));
  }
}
