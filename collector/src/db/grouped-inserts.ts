// Group commit for one collection's inserts: the documents that requests insert while a batch is
// on its way to the database wait, and go together as the next batch, one unordered insertMany.
// At low load a document goes at once, alone (an insertOne, as before); under load N requests'
// inserts cost one operation. Each request's promise settles when its own document is
// acknowledged, so durability is what it was; a document the database refuses (a duplicate _id)
// fails its own request only, with the database's error, and the others of its batch are stored.
import { MongoBulkWriteError, MongoServerError, type Collection, type Document, type OptionalUnlessRequiredId } from 'mongodb';

/** Documents of one batch at most: a burst beyond it goes in the batches that follow. */
const MAX_BATCH = 500;

interface Waiting<T> {
  doc: OptionalUnlessRequiredId<T>;
  done: (err?: unknown) => void;
}

export class GroupedInserts<T extends Document> {
  private waiting: Waiting<T>[] = [];
  private sending = false;

  constructor(private readonly collection: Collection<T>) {}

  insert(doc: OptionalUnlessRequiredId<T>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ doc, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.sending) void this.send();
    });
  }

  private async send(): Promise<void> {
    this.sending = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      const failures = await this.write(batch.map((w) => w.doc));
      batch.forEach((w, i) => w.done(failures === null ? undefined : failures instanceof Map ? failures.get(i) : failures));
    }
    this.sending = false;
  }

  /** null: every document stored; a map: the refused ones by their place in the batch; else the
   * error of the whole batch (a lost connection: none of its requests knows it is stored). */
  private async write(docs: OptionalUnlessRequiredId<T>[]): Promise<unknown> {
    try {
      if (docs.length === 1) await this.collection.insertOne(docs[0]!);
      else await this.collection.insertMany(docs, { ordered: false });
      return null;
    } catch (err) {
      if (docs.length === 1) return err;
      if (!(err instanceof MongoBulkWriteError) || err.writeErrors === undefined) return err;
      const refused = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
      if (refused.length === 0) return err; // stored, but not as durably as asked: no request may count on it
      // A refused document's own error, as an insertOne of it alone would have thrown.
      return new Map(refused.map((e) => [e.index, new MongoServerError({ message: e.errmsg ?? 'write error', code: e.code, errmsg: e.errmsg })]));
    }
  }
}
