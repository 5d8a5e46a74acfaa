// Counting requests against a limit in fixed windows, in the database: every collector process
// sharing it counts against one limit (N processes do not allow N times the limit).
//
// One document per key and window, `$inc`-ed by a findOneAndUpdate that answers the count with
// this request's increment in it. The window's document is made by an insert, not by an upsert:
// on the embedded SecantusDB the loser of two simultaneous first upserts gets its increment applied
// but no document back, so it cannot know its own count. rate-limiter-flexible's MongoDB store
// upserts, and threw on 25 of 50 simultaneous first requests here.
import type { Collection } from 'mongodb';
import { isDuplicateKey } from '../db/writes.ts';
import type { RateLimitDoc } from './documents.ts';

export class WindowLimiter {
  private readonly ms: number;

  constructor(
    private readonly col: Collection<RateLimitDoc>,
    private readonly prefix: string,
    private readonly points: number,
    durationSeconds: number,
  ) {
    this.ms = durationSeconds * 1000;
  }

  private windowOf(key: string, now: number): { start: number; _id: string } {
    const start = Math.floor(now / this.ms) * this.ms;
    return { start, _id: `${this.prefix}|${key}|${start}` };
  }

  /** Takes back one request counted at `now` (one that turned out not to count, such as a right password). */
  async giveBack(key: string, now: number): Promise<void> {
    await this.col.updateOne({ _id: this.windowOf(key, now)._id, n: { $gt: 0 } }, { $inc: { n: -1 } });
  }

  /** Counts one request for `key`: null while under the limit, else the seconds to wait. */
  async secondsOver(key: string, now = Date.now()): Promise<number | null> {
    const { start, _id } = this.windowOf(key, now);
    const count = () => this.col.findOneAndUpdate({ _id }, { $inc: { n: 1 } }, { returnDocument: 'after' });
    let doc = await count();
    if (!doc) {
      // The window's first request: make its document (at 0), whoever wins, then count.
      await this.col.insertOne({ _id, n: 0, expireAt: new Date(start + this.ms) }).catch((err) => {
        if (!isDuplicateKey(err)) throw err;
      });
      doc = await count();
    }
    if (!doc) throw new Error(`rate limit ${_id}: no count after its insert`);
    return doc.n > this.points ? Math.max(1, Math.ceil((start + this.ms - now) / 1000)) : null;
  }
}
