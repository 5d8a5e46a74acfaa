// Writes of a stored call, as a compare-and-set on its revision, and what follows each change: the
// summaries (data API rollups, page buckets, report counters) move by exactly the change from the
// call that was read, then the `call` push, the lead's GA4 event and the alerts go at once. Those
// belong to other families: the house wires them in (house/call-writes.ts), telephony knows none.
import { isDuplicateKey } from '../db/writes.ts';
import type { CallDoc, TelephonyCollections } from './documents.ts';

/** Told of a call stored (`before` null) or changed from `before` to `after`. */
export type CallReaction = (before: CallDoc | null, after: CallDoc) => Promise<unknown>;

export interface CallReactions {
  /** Done before the others: what they read (a call's summaries) is counted by then. */
  first: CallReaction;
  then: readonly CallReaction[];
}

export class CallWrites {
  constructor(
    private readonly c: TelephonyCollections,
    private readonly reactions: CallReactions,
  ) {}

  private async changed(before: CallDoc | null, after: CallDoc): Promise<void> {
    await this.reactions.first(before, after);
    await Promise.all(this.reactions.then.map((react) => react(before, after)));
  }

  /** Stores a new call; false when a simultaneous first report of its callRef stored it first. */
  async insert(call: CallDoc): Promise<boolean> {
    try {
      await this.c.calls.insertOne(call);
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
    await this.changed(null, call);
    return true;
  }

  /** Sets the fields `next` makes of the call as it is now (null: no change), read again and retried
   * when another write came between; the call after, or null when it is gone or unchanged. */
  async change(callId: number, next: (call: CallDoc) => Partial<CallDoc> | null): Promise<CallDoc | null> {
    for (;;) {
      const call = await this.c.calls.findOne({ _id: callId });
      const set = call && next(call);
      if (!call || !set) return null;
      if (await this.update(call, set)) return { ...call, ...set, rev: call.rev + 1 };
    }
  }

  /** Sets fields of the call as it was read; false when another write changed it meanwhile. */
  async update(stored: CallDoc, set: Partial<CallDoc>): Promise<boolean> {
    const { matchedCount } = await this.c.calls.updateOne({ _id: stored._id, rev: stored.rev }, { $set: set, $inc: { rev: 1 } });
    if (matchedCount === 0) return false;
    await this.changed(stored, { ...stored, ...set, rev: stored.rev + 1 });
    return true;
  }
}
