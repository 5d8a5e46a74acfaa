// Group commit of one collection's inserts (batches.ts): the documents that requests insert while a
// batch is on its way go as one unordered insert (one statement; sets: grouped-sets.ts). Each
// request's promise settles when its own document is acknowledged, so durability is what it was; a
// document the database refuses (a duplicate _id) fails its own request only, with the database's
// error, and the others are stored.
import { MongoBulkWriteError, MongoServerError, type Collection, type Document, type OptionalUnlessRequiredId } from 'mongodb';
import { Batches, type Outcome } from './batches.ts';

export class GroupedWrites<T extends Document> {
  private readonly batches: Batches<OptionalUnlessRequiredId<T>, void>;

  constructor(private readonly collection: Collection<T>) {
    this.batches = new Batches((docs) => this.insertMany(docs));
  }

  insert(doc: OptionalUnlessRequiredId<T>): Promise<void> {
    return this.batches.add(doc);
  }

  /** Throws the error of the whole batch (a lost connection: none of its requests knows its document is stored). */
  private async insertMany(docs: OptionalUnlessRequiredId<T>[]): Promise<Outcome<void>[]> {
    try {
      await this.collection.insertMany(docs, { ordered: false });
      return docs.map(() => ({ value: undefined }));
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError) || err.writeErrors === undefined) throw err;
      const refused = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
      if (refused.length === 0) throw err; // stored, but not as durably as asked: no request may count on it
      // A refused document's own error, as the insert alone would have thrown it.
      const errors = new Map(refused.map((e) => [e.index, new MongoServerError({ message: e.errmsg ?? 'write error', code: e.code, errmsg: e.errmsg })]));
      return docs.map((_, i) => (errors.has(i) ? { error: errors.get(i) } : { value: undefined }));
    }
  }
}
