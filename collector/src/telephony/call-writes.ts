// Writes of a stored call, as a compare-and-set on its revision: the summaries (data API rollups,
// page buckets, report counters) move by exactly the change from the call that was read, and the
// accounts that asked for it get the `call` push (webhooks/call-push.ts).
import type { Collections } from '../db/collections.ts';
import { isDuplicateKey } from '../db/writes.ts';
import { CallSummaries } from '../data/call-summaries.ts';
import { CallPush } from '../webhooks/call-push.ts';
import type { CallDoc } from './documents.ts';

export class CallWrites {
  private readonly summaries: CallSummaries;
  private readonly pushes: CallPush;

  constructor(private readonly c: Collections) {
    this.summaries = new CallSummaries(c);
    this.pushes = new CallPush(c);
  }

  /** Stores a new call; false when a simultaneous first report of its callRef stored it first. */
  async insert(call: CallDoc): Promise<boolean> {
    try {
      await this.c.calls.insertOne(call);
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
    await this.summaries.record(null, call);
    await this.pushes.changed(null, call);
    return true;
  }

  /** Sets fields of the call as it was read; false when another write changed it meanwhile. */
  async update(stored: CallDoc, set: Partial<CallDoc>): Promise<boolean> {
    const { matchedCount } = await this.c.calls.updateOne({ _id: stored._id, rev: stored.rev }, { $set: set, $inc: { rev: 1 } });
    if (matchedCount === 0) return false;
    const after = { ...stored, ...set, rev: stored.rev + 1 };
    await this.summaries.record(stored, after);
    await this.pushes.changed(stored, after);
    return true;
  }
}
