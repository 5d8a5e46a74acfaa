// Claims of a pool's exclusive slots, and renewals of slots this process knows a visit holds,
// gathered (group commit, db/grouped-sets.ts): those a process makes while a batch is on its way go
// together as one update statement. Each claim names its slot by `_id` and by the generation it was
// read at, and requires it free: the database still lets exactly one claim win a slot, whichever
// process makes it. A claim won when the slot carries its token. A renewal requires the same
// generation and holder, and the lease not ended.
import { randomUUID } from 'node:crypto';
import { GroupedSets } from '../db/grouped-sets.ts';
import type { SlotDoc, TrackingCollections } from './documents.ts';

/** A free slot as read: what a claim of it needs to know. */
export type FreeSlot = Pick<SlotDoc, '_id' | 'domainId' | 'type' | 'number' | 'code' | 'gen'>;

/** What a won claim sets on the slot. */
export type ClaimFields = Pick<SlotDoc, 'freeAt' | 'visitId' | 'phone' | 'hold'>;

export class SlotClaims {
  private readonly sets: GroupedSets<SlotDoc>;

  constructor(c: TrackingCollections) {
    this.sets = new GroupedSets(c.slots);
  }

  /** The slot as the claim left it; null when it was not free any more (another claim won it).
   * `token`: the claim's, which the slot carries when it won. */
  async claim(slot: FreeSlot, now: Date, fields: ClaimFields, token: string = randomUUID()): Promise<SlotDoc | null> {
    const won = { ...fields, gen: slot.gen + 1, claim: token };
    return (await this.sets.set({ _id: slot._id, gen: slot.gen, freeAt: { $lte: now } }, won)) ? { ...slot, ...won } : null;
  }

  /** Moves the end of the slot's lease to `freeAt` if `holder` still holds it; whether it did. */
  renew(slot: Pick<SlotDoc, '_id' | 'gen'>, holder: Pick<SlotDoc, 'visitId' | 'phone'>, now: Date, freeAt: Date): Promise<boolean> {
    return this.sets.set({ _id: slot._id, gen: slot.gen, visitId: holder.visitId, phone: holder.phone, freeAt: { $gt: now } }, { freeAt });
  }
}
