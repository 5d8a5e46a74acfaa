// Integer ids (visitId, viewId, ...) unique across collector processes sharing one database.
//
// A process takes a block of ids with one `$inc` on the sequence's counter and hands them out
// locally: one round trip per block instead of one per id. Ids of a block left unused when the
// process stops are skipped, never reused.
import type { Collection } from 'mongodb';
import { isDuplicateKey } from './writes.ts';
import type { CounterDoc } from './documents.ts';

export type IdSequence = 'visit' | 'view' | 'click' | 'call' | 'sms' | 'cart' | 'order' | 'form' | 'person';

interface Block {
  next: number;
  last: number;
}

export class IdAllocator {
  private readonly blocks = new Map<string, Block>();
  private readonly queues = new Map<string, Promise<unknown>>();
  /** The next block of a sequence, taken while a quarter of the current one is left: no request
   * waits for a block under a steady load. */
  private readonly nextBlocks = new Map<string, Promise<Block>>();

  constructor(
    private readonly counters: Collection<CounterDoc>,
    private readonly blockSize = 100,
  ) {}

  /** Requests of one sequence queue up, so a block is taken once however many wait for it. */
  next(seq: IdSequence): Promise<number> {
    const taken = (this.queues.get(seq) ?? Promise.resolve()).then(() => this.take(seq));
    this.queues.set(seq, taken.catch(() => undefined));
    return taken;
  }

  private async take(seq: string): Promise<number> {
    let block = this.blocks.get(seq);
    if (!block || block.next > block.last) {
      const next = this.nextBlocks.get(seq);
      this.nextBlocks.delete(seq);
      block = await (next ?? this.takeBlock(seq));
      this.blocks.set(seq, block);
    }
    if (block.last - block.next < this.blockSize / 4 && !this.nextBlocks.has(seq)) {
      const next = this.takeBlock(seq);
      next.catch(() => this.nextBlocks.get(seq) === next && this.nextBlocks.delete(seq)); // taken again when needed
      this.nextBlocks.set(seq, next);
    }
    return block.next++;
  }

  private async takeBlock(seq: string): Promise<Block> {
    // Only the first block of a sequence can race, to create its counter: the loser gets a duplicate
    // key (MongoDB) or no document (SecantusDB), and takes the next block.
    for (let attempt = 0; attempt < 5; attempt++) {
      const counter = await this.counters
        .findOneAndUpdate({ _id: seq }, { $inc: { last: this.blockSize } }, { upsert: true, returnDocument: 'after' })
        .catch((err) => (isDuplicateKey(err) ? null : Promise.reject(err)));
      if (counter) return { next: counter.last - this.blockSize + 1, last: counter.last };
    }
    throw new Error(`could not take a block of ${seq} ids`);
  }
}
