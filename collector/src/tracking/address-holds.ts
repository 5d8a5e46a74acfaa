// How many numbers of a domain one client address holds at once (the domain's numbersPerAddress),
// so that one address cannot drain a pool by opening visit after visit.
//
// One document per domain and address lists its holds, each with the end of the lease it stands
// for. A claim first reserves a hold with one pipeline update that drops the ended holds and adds
// the new one only while fewer than the limit are left: the database applies it to the document
// atomically, so simultaneous claims from one address never overshoot. A lease whose expiry moves
// (kept alive, released) moves its hold's end too (NumberPool.renew).
import { randomUUID } from 'node:crypto';
import type { AddressHoldDoc, SlotDoc } from './documents.ts';
import type { Collections } from '../db/collections.ts';
import { isDuplicateKey } from '../db/writes.ts';

export interface AddressLimit {
  address: string;
  /** Numbers one address may hold at once; 0: no limit. */
  max: number;
}

export type AddressHold = NonNullable<SlotDoc['hold']>;

export class AddressHolds {
  constructor(private readonly c: Collections) {}

  /** A hold for a lease ending at `until`; null when the address already holds its limit. */
  async reserve(domainId: string, limit: AddressLimit, until: Date, now: Date): Promise<AddressHold | null> {
    const _id = `${domainId}|${limit.address}`;
    const token = randomUUID();
    const reserve = () =>
      this.c.addressHolds.findOneAndUpdate(
        { _id },
        [
          { $set: { holds: { $filter: { input: '$holds', cond: { $gt: ['$$this.until', now] } } } } },
          { $set: { holds: { $cond: [{ $lt: [{ $size: '$holds' }, limit.max] }, { $concatArrays: ['$holds', [{ token, until }]] }, '$holds'] } } },
          { $set: { expireAt: { $max: ['$expireAt', until] } } },
        ],
        { returnDocument: 'after' },
      );
    let doc = await reserve();
    if (!doc) {
      // The address's first claim: make its document, whoever wins, then reserve (an upsert's loser
      // may get no document back on some servers, as in http/rate-limits.ts).
      await this.c.addressHolds.insertOne({ _id, holds: [], expireAt: until }).catch((err) => {
        if (!isDuplicateKey(err)) throw err;
      });
      doc = await reserve();
    }
    return doc?.holds.some((h) => h.token === token) ? { address: _id, token } : null;
  }

  /** Gives a hold back: its claim found no number. */
  async cancel(hold: AddressHold): Promise<void> {
    await this.c.addressHolds.updateOne({ _id: hold.address }, { $pull: { holds: { token: hold.token } } });
  }

  /** The hold's lease now ends at `until`. */
  async follow(hold: AddressHold, until: Date): Promise<void> {
    await this.c.addressHolds.updateOne({ _id: hold.address, 'holds.token': hold.token }, { $set: { 'holds.$.until': until }, $max: { expireAt: until } });
  }
}
