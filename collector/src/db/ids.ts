// Integer ids (visitId, viewId, ...) unique across collector processes sharing one database.
//
// Hi/lo: a process claims a block of ids by inserting the block's document, whose _id collides
// with any other claim of the same block, then hands the block's ids out locally. This needs no
// atomic read-modify-write, which FerretDB v1 does not provide (its findAndModify reads, then writes).
import type { Collection } from 'mongodb';
import { isDuplicateKey, type IdBlockDoc } from './collections.ts';

export type IdSequence = 'visit' | 'view' | 'click' | 'call' | 'sms' | 'cart' | 'order';

interface Block {
  next: number;
  last: number;
}

export class IdAllocator {
  private readonly blocks = new Map<string, Block>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly idBlocks: Collection<IdBlockDoc>,
    private readonly blockSize = 100,
  ) {}

  next(seq: IdSequence): Promise<number> {
    const taken = (this.queues.get(seq) ?? Promise.resolve()).then(() => this.take(seq));
    this.queues.set(seq, taken.catch(() => undefined));
    return taken;
  }

  private async take(seq: string): Promise<number> {
    let block = this.blocks.get(seq);
    if (!block || block.next > block.last) {
      block = await this.claimBlock(seq);
      this.blocks.set(seq, block);
    }
    return block.next++;
  }

  private async claimBlock(seq: string): Promise<Block> {
    for (let attempt = 0; attempt < 1000; attempt++) {
      const top = await this.idBlocks.find({ seq }).sort({ block: -1 }).limit(1).next();
      const block = (top?.block ?? -1) + 1;
      try {
        await this.idBlocks.insertOne({ _id: `${seq}:${block}`, seq, block, claimedAt: new Date() });
        return { next: block * this.blockSize + 1, last: (block + 1) * this.blockSize };
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
    throw new Error(`could not claim an id block for ${seq}`);
  }
}
