// Group commit for one collection's writes: the writes that requests make while a batch is on its
// way to the database wait, and go together as the next batch, one unordered bulkWrite (an insert
// command for its inserts, an update command for its updates). At low load a write goes at once,
// alone; under load N requests' writes cost one operation. Each request's promise settles when its
// own write is acknowledged, so durability is what it was; a write the database refuses (a
// duplicate _id) fails its own request only, with the database's error, and the others are made.
// A batch's writes may be applied in any order: never group two writes of one document.
import { MongoBulkWriteError, MongoServerError, type AnyBulkWriteOperation, type Collection, type Document, type OptionalId } from 'mongodb';

/** Writes of one batch at most: a burst beyond it goes in the batches that follow. */
const MAX_BATCH = 500;

interface Waiting<T extends Document> {
  op: AnyBulkWriteOperation<T>;
  done: (err?: unknown) => void;
}

export class GroupedWrites<T extends Document> {
  private waiting: Waiting<T>[] = [];
  private sending = false;

  constructor(private readonly collection: Collection<T>) {}

  insert(doc: OptionalId<T>): Promise<void> {
    return this.write({ insertOne: { document: doc } });
  }

  write(op: AnyBulkWriteOperation<T>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ op, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.sending) void this.send();
    });
  }

  private async send(): Promise<void> {
    this.sending = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      const failures = await this.bulk(batch.map((w) => w.op));
      batch.forEach((w, i) => w.done(failures === null ? undefined : failures instanceof Map ? failures.get(i) : failures));
    }
    this.sending = false;
  }

  /** null: every write made; a map: the refused ones by their place in the batch; else the error of
   * the whole batch (a lost connection: none of its requests knows its write is made). */
  private async bulk(ops: AnyBulkWriteOperation<T>[]): Promise<unknown> {
    try {
      await this.collection.bulkWrite(ops, { ordered: false });
      return null;
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError) || err.writeErrors === undefined) return err;
      const refused = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
      if (refused.length === 0) return err; // made, but not as durably as asked: no request may count on it
      // A refused write's own error, as the write alone would have thrown it.
      return new Map(refused.map((e) => [e.index, new MongoServerError({ message: e.errmsg ?? 'write error', code: e.code, errmsg: e.errmsg })]));
    }
  }
}
