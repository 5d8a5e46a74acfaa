// Claims of a pool's exclusive slots, gathered (group commit, db/batches.ts): the claims a process
// makes while a batch is on its way go together as one bulkWrite of updates. Each update names its
// slot by `_id` and by the generation it was read at, and requires it free: the database still lets
// exactly one claim win a slot, whichever process makes it. A batch whose count of updated slots
// says every claim won needs nothing more; otherwise its slots are read back once, and a claim won
// when the slot carries its token.
import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation } from 'mongodb';
import type { Collections } from '../db/collections.ts';
import { Batches, type Outcome } from '../db/batches.ts';
import type { SlotDoc } from './documents.ts';

/** A free slot as read: what a claim of it needs to know. */
export type FreeSlot = Pick<SlotDoc, '_id' | 'domainId' | 'type' | 'number' | 'code' | 'gen'>;

/** What a won claim sets on the slot. */
export type ClaimFields = Pick<SlotDoc, 'freeAt' | 'visitId' | 'phone' | 'hold'>;

interface Claim {
  slot: FreeSlot;
  now: Date;
  set: ClaimFields;
  token: string;
}

export class SlotClaims {
  private readonly batches: Batches<Claim, SlotDoc | null>;

  constructor(private readonly c: Collections) {
    this.batches = new Batches((claims) => this.send(claims));
  }

  /** The slot as the claim left it; null when it was not free any more (another claim won it). */
  claim(slot: FreeSlot, now: Date, set: ClaimFields): Promise<SlotDoc | null> {
    return this.batches.add({ slot, now, set, token: randomUUID() });
  }

  private async send(claims: Claim[]): Promise<Outcome<SlotDoc | null>[]> {
    const ops: AnyBulkWriteOperation<SlotDoc>[] = claims.map(({ slot, now, set, token }) => ({
      updateOne: { filter: { _id: slot._id, gen: slot.gen, freeAt: { $lte: now } }, update: { $set: { ...set, gen: slot.gen + 1, claim: token } } },
    }));
    const { matchedCount } = await this.c.slots.bulkWrite(ops, { ordered: false });
    let won = (_: Claim) => true;
    if (matchedCount < claims.length) {
      const tokens = new Map((await this.c.slots.find({ _id: { $in: claims.map((c) => c.slot._id) } }, { projection: { claim: 1 } }).toArray()).map((s) => [s._id, s.claim]));
      won = (c) => tokens.get(c.slot._id) === c.token;
    }
    return claims.map((c) => ({ value: won(c) ? { ...c.slot, ...c.set, gen: c.slot.gen + 1, claim: c.token } : null }));
  }
}
