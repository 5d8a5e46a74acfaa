// A domain's blocklist of caller numbers (Appendix A's CALLER_PHONE_BLACKLISTED): a call from one is
// refused and recorded with that status, an SMS from one is kept but never listed. Knows nothing of HTTP.
import { isDuplicateKey } from '../db/writes.ts';
import type { BlockedCallerDoc, TelephonyCollections } from './documents.ts';
import { domainKeys } from '../data/call-days.ts';

const keyOf = (domainId: string, number: string) => `${domainId}|${number}`;

export class BlockedCallers {
  constructor(private readonly c: TelephonyCollections) {}

  /** An anonymous caller (null) cannot be blocked: there is no number to match. */
  async isBlocked(domainId: string, caller: string | null): Promise<boolean> {
    if (!caller) return false;
    return (await this.c.blockedCallers.countDocuments({ _id: keyOf(domainId, caller) }, { limit: 1 })) > 0;
  }

  /** Which of these numbers are blocked. */
  async blockedAmong(domainId: string, numbers: string[]): Promise<Set<string>> {
    const found = await this.c.blockedCallers.find({ _id: { $in: numbers.map((n) => keyOf(domainId, n)) } }, { projection: { number: 1 } }).toArray();
    return new Set(found.map((b) => b.number));
  }

  /** Newest first. */
  async list(domainId: string): Promise<BlockedCallerDoc[]> {
    const all = await this.c.blockedCallers.find({ _id: domainKeys(domainId) }).toArray();
    return all.sort((a, b) => b.addedAt.getTime() - a.addedAt.getTime() || a.number.localeCompare(b.number));
  }

  /** Blocking a number already blocked keeps when and by whom it was first blocked. */
  async add(domainId: string, number: string, addedBy: string, now = new Date()): Promise<BlockedCallerDoc> {
    const _id = keyOf(domainId, number);
    await this.c.blockedCallers.updateOne({ _id }, { $setOnInsert: { domainId, number, addedAt: now, addedBy } }, { upsert: true }).catch((err: unknown) => {
      // Two first blocks of one number raced: the other one's insert stands.
      if (!isDuplicateKey(err)) throw err;
    });
    return (await this.c.blockedCallers.findOne({ _id }))!;
  }

  /** False when the number was not blocked. */
  async remove(domainId: string, number: string): Promise<boolean> {
    return (await this.c.blockedCallers.deleteOne({ _id: keyOf(domainId, number) })).deletedCount > 0;
  }
}
