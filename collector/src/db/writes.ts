// Write helpers any family uses: an upsert that survives a race of first writes, an entry put at a
// revision, and the duplicate-key test of an insert that claims an id.
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

/** Puts an entry kept from a document at that document's revision (`rev`): `fields` set, the names
 * of `unset` removed. An entry already at a later revision stays: a write that arrives late changes nothing. */
export async function putAtRevision<T extends { _id: string; rev: number }>(col: Collection<T>, _id: string, rev: number, fields: Partial<T>, unset: string[] = []): Promise<void> {
  const update = { $set: { ...fields, rev }, ...(unset.length ? { $unset: Object.fromEntries(unset.map((name) => [name, ''])) } : {}) } as UpdateFilter<T>;
  try {
    await col.updateOne({ _id, rev: { $lt: rev } } as Filter<T>, update, { upsert: true });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err; // the entry is at a later revision already
  }
}

export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}
