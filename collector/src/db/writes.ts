// Write helpers any family uses: an upsert that survives a race of first writes, and the
// duplicate-key test of an insert that claims an id.
import type { Collection, Filter, UpdateFilter } from 'mongodb';

/** Sets fields on the document of `_id`, creating it if needed. Two first writes may both try the
 * insert (MongoDB retries such an upsert itself, but not every server does): the loser updates. */
export async function upsertById<T extends { _id: string | number }>(col: Collection<T>, _id: T['_id'], set: Partial<T>, onInsert: Partial<T>): Promise<void> {
  const filter = { _id } as Filter<T>;
  try {
    await col.updateOne(filter, { $set: set, $setOnInsert: onInsert } as UpdateFilter<T>, { upsert: true });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    await col.updateOne(filter, { $set: set } as UpdateFilter<T>);
  }
}

export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}
