// A change to a stored call, as a compare-and-set on its revision: the summaries (data API rollups,
// page buckets, report counters) move by exactly the change from the call that was read.
import type { Collections } from '../db/collections.ts';
import type { CallSummaries } from '../data/call-summaries.ts';
import type { CallDoc } from './documents.ts';

/** Sets fields of the call as it was read; false when another write changed it meanwhile. */
export async function updateCall(c: Collections, summaries: CallSummaries, stored: CallDoc, set: Partial<CallDoc>): Promise<boolean> {
  const { matchedCount } = await c.calls.updateOne({ _id: stored._id, rev: stored.rev }, { $set: set, $inc: { rev: 1 } });
  if (matchedCount === 0) return false;
  await summaries.record(stored, { ...stored, ...set, rev: stored.rev + 1 });
  return true;
}
