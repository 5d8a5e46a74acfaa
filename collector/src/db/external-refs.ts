// Outside references (a carrier's callRef, a shop's cart id) mapped to our integer record ids.
import { isDuplicateKey, type Collections } from './collections.ts';
import type { IdAllocator, IdSequence } from './ids.ts';

/** The record id `key` stands for, claimed by insert so two simultaneous first reports make one record. */
export async function claimRecordId(c: Collections, ids: IdAllocator, seq: IdSequence, key: string): Promise<number> {
  const known = await c.externalRefs.findOne({ _id: key });
  if (known) return known.recordId;
  const recordId = await ids.next(seq);
  try {
    await c.externalRefs.insertOne({ _id: key, recordId });
    return recordId;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return (await c.externalRefs.findOne({ _id: key }))!.recordId;
  }
}

/** The record id `key` stands for, or null when it was never claimed. */
export async function recordIdOf(c: Collections, key: string): Promise<number | null> {
  return (await c.externalRefs.findOne({ _id: key }))?.recordId ?? null;
}
