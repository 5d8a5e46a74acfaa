// The numbers that opted out of a domain's texts (STOP and its kin, keywords.ts): no text is sent to
// them until they text START (or YES, UNSTOP). Kept by the SHA-256 of the number, so that when their
// person is erased the opt-out survives as the hash alone, and still holds if they text again.
import { createHash } from 'node:crypto';
import { upsertById } from '../db/writes.ts';
import type { OptOutDoc, TextingCollections } from './documents.ts';

export const optOutId = (domainId: string, phone: string) => `${domainId}|${createHash('sha256').update(phone).digest('hex')}`;

export class OptOuts {
  constructor(private readonly c: TextingCollections) {}

  /** The number's opt-out, or null: it may be texted. */
  of(domainId: string, phone: string): Promise<OptOutDoc | null> {
    return this.c.optOuts.findOne({ _id: optOutId(domainId, phone) });
  }

  async optOut(domainId: string, phone: string, word: string, at: Date): Promise<void> {
    await upsertById(this.c.optOuts, optOutId(domainId, phone), { domainId, phone, at, word }, {});
  }

  async optIn(domainId: string, phone: string): Promise<void> {
    await this.c.optOuts.deleteOne({ _id: optOutId(domainId, phone) });
  }

  /** An erase: the numbers go, their hashes stay. */
  async forget(domainId: string, phones: string[]): Promise<number> {
    if (!phones.length) return 0;
    return (await this.c.optOuts.updateMany({ _id: { $in: phones.map((p) => optOutId(domainId, p)) } }, { $set: { phone: null } })).modifiedCount;
  }

  /** A person's data download: their opt-outs. */
  ofPhones(domainId: string, phones: string[]): Promise<OptOutDoc[]> {
    return phones.length ? this.c.optOuts.find({ _id: { $in: phones.map((p) => optOutId(domainId, p)) } }).toArray() : Promise.resolve([]);
  }
}
