// Outside references (a carrier's callRef, a shop's cart id) mapped to our integer record ids.
import { isDuplicateKey } from './writes.ts';
import type { IdAllocator, IdSequence } from './ids.ts';
import type { IdCollections } from './documents.ts';

/** The record id `key` stands for. A new key is claimed by an upsert, so two simultaneous first
 * reports make one record (the loser's offered id is skipped). */
export async function claimRecordId(c: IdCollections, ids: IdAllocator, seq: IdSequence, key: string): Promise<number> {
  const known = await recordIdOf(c, key);
  if (known !== null) return known;
  const offered = await ids.next(seq);
  const ref = await c.externalRefs
    .findOneAndUpdate({ _id: key }, { $setOnInsert: { recordId: offered } }, { upsert: true, returnDocument: 'after' })
    .catch((err) => (isDuplicateKey(err) ? null : Promise.reject(err)));
  // The losing upsert of a race: a duplicate key on MongoDB, no document on SecantusDB. The winner's is stored.
  return ref?.recordId ?? (await recordIdOf(c, key))!;
}

/** The record id `key` stands for, or null when it was never claimed. */
export async function recordIdOf(c: IdCollections, key: string): Promise<number | null> {
  return (await c.externalRefs.findOne({ _id: key }))?.recordId ?? null;
}
