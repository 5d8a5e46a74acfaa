// Group commit of `$set`s on documents named by `_id` (batches.ts): the sets that requests make
// while a batch is on its way go together as ONE update statement, `updateMany` over the `$or` of
// their filters with a pipeline that gives each matched document its own fields.
//
// Why one statement and not a bulkWrite of updates: a server applies an update command's
// statements one after another, each its own transaction, and with every commit synced to disk
// (the embedded server's --sync-on-commit, or j:true) each its own sync; the embedded server holds
// the collection's lock through each. N updates of a bulkWrite cost N syncs in a row, so a batch
// that grew while the disk was slow took longer still, and the next grew more (measured: 30 claims
// 6 to 9 ms alone, 40 to 80 ms under load). One statement costs one transaction whatever its size.
//
// Each set's filter names its document's `_id` (and any conditions); the set was applied when the
// document now carries every field it set, which the caller makes unique with a token field where
// it matters (a claim, a visit's touch). A batch whose count of matched documents says every set was
// applied needs nothing more; otherwise its documents are read back once. Two sets of one document
// in a batch go in statements one after the other, in the order they were made.
import { isDeepStrictEqual } from 'node:util';
import type { Collection, Document, Filter } from 'mongodb';
import { Batches, type Outcome } from './batches.ts';

interface PendingSet<T> {
  filter: Filter<T> & { _id: unknown };
  fields: Partial<T>;
}

export class GroupedSets<T extends Document> {
  private readonly batches: Batches<PendingSet<T>, boolean>;

  constructor(private readonly collection: Collection<T>) {
    this.batches = new Batches((sets) => this.send(sets));
  }

  /** Sets `fields` (top-level fields) on the document that matches `filter`, whose `_id` it names;
   * whether it did (false: no document matched). */
  set(filter: Filter<T> & { _id: unknown }, fields: Partial<T>): Promise<boolean> {
    return this.batches.add({ filter, fields });
  }

  private async send(sets: PendingSet<T>[]): Promise<Outcome<boolean>[]> {
    const applied = new Map<PendingSet<T>, boolean>();
    for (const round of rounds(sets)) {
      for (const [set, done] of await this.apply(round)) applied.set(set, done);
    }
    return sets.map((set) => ({ value: applied.get(set)! }));
  }

  /** Sets of distinct documents, as one statement. */
  private async apply(round: PendingSet<T>[]): Promise<[PendingSet<T>, boolean][]> {
    // The `_id`s first: a server reads those documents by `_id`, then tests each filter (SecantusDB
    // reads a whole collection for a bare `$or`, whatever its branches).
    const ids = round.map((s) => s.filter._id);
    const filter = round.length === 1 ? round[0]!.filter : { $and: [{ _id: { $in: ids } }, { $or: round.map((s) => s.filter) }] };
    const branches = round.map((s) => ({ case: { $eq: ['$_id', { $literal: s.filter._id }] }, then: { $literal: s.fields } }));
    const { matchedCount } = await this.collection.updateMany(filter as Filter<T>, [{ $replaceWith: { $mergeObjects: ['$$ROOT', { $switch: { branches, default: {} } }] } }]);
    if (matchedCount === round.length) return round.map((s) => [s, true]);
    const fieldNames = Object.fromEntries(round.flatMap((s) => Object.keys(s.fields)).map((k) => [k, 1]));
    const docs = await this.collection.find({ _id: { $in: ids } } as Filter<T>, { projection: fieldNames }).toArray();
    const byId = new Map(docs.map((d) => [JSON.stringify(d._id), d]));
    return round.map((s) => {
      const doc = byId.get(JSON.stringify(s.filter._id));
      return [s, doc !== undefined && Object.entries(s.fields).every(([k, v]) => isDeepStrictEqual(doc[k], v))];
    });
  }
}

/** The sets in statements of distinct `_id`s: a document's second set goes in the second, and so on. */
function rounds<T>(sets: PendingSet<T>[]): PendingSet<T>[][] {
  const seen = new Map<string, number>();
  const out: PendingSet<T>[][] = [];
  for (const set of sets) {
    const key = JSON.stringify(set.filter._id);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    (out[n] ??= []).push(set);
  }
  return out;
}
