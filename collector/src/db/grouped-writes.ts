// Group commit for one collection's writes (batches.ts): the writes of a batch go as one unordered
// bulkWrite (an insert command for its inserts, an update command for its updates). Each request's
// promise settles when its own write is acknowledged, so durability is what it was; a write the
// database refuses (a duplicate _id) fails its own request only, with the database's error, and the
// others are made. A batch's writes may be applied in any order: never group two writes of one document.
import { MongoBulkWriteError, MongoServerError, type AnyBulkWriteOperation, type Collection, type Document, type OptionalId } from 'mongodb';
import { Batches, type Outcome } from './batches.ts';

export class GroupedWrites<T extends Document> {
  private readonly batches: Batches<AnyBulkWriteOperation<T>, void>;

  constructor(private readonly collection: Collection<T>) {
    this.batches = new Batches((ops) => this.bulk(ops));
  }

  insert(doc: OptionalId<T>): Promise<void> {
    return this.write({ insertOne: { document: doc } });
  }

  write(op: AnyBulkWriteOperation<T>): Promise<void> {
    return this.batches.add(op);
  }

  /** Throws the error of the whole batch (a lost connection: none of its requests knows its write is made). */
  private async bulk(ops: AnyBulkWriteOperation<T>[]): Promise<Outcome<void>[]> {
    try {
      await this.collection.bulkWrite(ops, { ordered: false });
      return ops.map(() => ({ value: undefined }));
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError) || err.writeErrors === undefined) throw err;
      const refused = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
      if (refused.length === 0) throw err; // made, but not as durably as asked: no request may count on it
      // A refused write's own error, as the write alone would have thrown it.
      const errors = new Map(refused.map((e) => [e.index, new MongoServerError({ message: e.errmsg ?? 'write error', code: e.code, errmsg: e.errmsg })]));
      return ops.map((_, i) => (errors.has(i) ? { error: errors.get(i) } : { value: undefined }));
    }
  }
}
