// First-time callers (ours): a call whose caller never called the domain before. Decided once, at
// the call's first report, by claiming the caller for the domain with an insert on
// `<domainId>|<number>`: of two simultaneous first calls of one new caller exactly one wins.
import type { Collections } from '../db/collections.ts';
import { isDuplicateKey } from '../db/writes.ts';

export class FirstCalls {
  constructor(private readonly c: Collections) {}

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
    return !(await this.calledBeforeItWasKept(domainId, caller, callId));
  }

  /** A call stored before first calls were kept (no `firstCall` field) counts as an earlier call. */
  private async calledBeforeItWasKept(domainId: string, caller: string, callId: number): Promise<boolean> {
    return (await this.c.calls.countDocuments({ domainId, caller, _id: { $ne: callId }, firstCall: { $exists: false } }, { limit: 1 })) > 0;
  }
}
