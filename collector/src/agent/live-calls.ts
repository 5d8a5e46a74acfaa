// Calls an agent is on, whose caller's activity is pushed to the account's webhook: from callStart
// until the call's outcome is reported, and never longer than LIVE_CALL_LIMIT_MS.
//
// Every page view of a returning visit asks this collection for its visit's live calls, once the
// view is stored (so a callStart that reads the visit's pages after opening its call misses none):
// the views of many requests ask together, one query for their visits (group commit, db/batches.ts).
// It holds only live calls: ended ones are deleted, and each callStart sweeps those past their limit.
import { Batches } from '../db/batches.ts';
import { upsertById } from '../db/writes.ts';
import type { CallDoc } from '../telephony/documents.ts';
import type { LiveCallDoc, AgentCollections } from './documents.ts';

export const LIVE_CALL_LIMIT_MS = 2 * 3600_000;

export class LiveCalls {
  private readonly ofVisits: Batches<number, LiveCallDoc[]>;

  constructor(private readonly c: AgentCollections) {
    this.ofVisits = new Batches(async (visitIds) => {
      const live = await this.c.liveCalls.find({ visitId: { $in: [...new Set(visitIds)] }, until: { $gt: new Date() } }).toArray();
      return visitIds.map((visitId) => ({ value: live.filter((l) => l.visitId === visitId) }));
    });
  }

  /** A second callStart of the same call restarts its time limit. */
  async open(call: CallDoc, accountId: string, now: Date): Promise<void> {
    await this.c.liveCalls.deleteMany({ until: { $lte: now } });
    await upsertById(this.c.liveCalls, call._id, { accountId, visitId: call.visitId, openedAt: now, until: new Date(now.getTime() + LIVE_CALL_LIMIT_MS) }, {});
  }

  /** The call's outcome arrived: nothing more is pushed for it. */
  async end(callId: number): Promise<void> {
    await this.c.liveCalls.deleteOne({ _id: callId });
  }

  /** The live calls of a visit now, asked with other views' (a view's push). */
  async ofVisit(accountId: string, visitId: number): Promise<LiveCallDoc[]> {
    return (await this.ofVisits.add(visitId)).filter((l) => l.accountId === accountId);
  }

  /** The live calls of a visit, and the one call a cart or order names, if live. */
  async of(accountId: string, visitId: number | null, callId: number | null, now: Date): Promise<LiveCallDoc[]> {
    const ors: object[] = [];
    if (visitId !== null) ors.push({ visitId });
    if (callId !== null) ors.push({ _id: callId });
    if (ors.length === 0) return [];
    const live = await this.c.liveCalls.find({ $or: ors, until: { $gt: now } }).toArray();
    return live.filter((l) => l.accountId === accountId);
  }
}
