// The shared state of ring groups: a round-robin group's next turn, claimed by one atomic increment
// so that calls arriving at once each get their own turn (no two the same while others wait), and
// who last answered a caller, for sticky groups.
import { isDuplicateKey } from '../db/writes.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { FlowCollections } from './documents.ts';

const DAY_MS = 86_400_000;

export class RingTurns {
  constructor(private readonly c: FlowCollections & Pick<TelephonyCollections, 'stickyAnswers'>) {}

  /** The call's turn in the group (0 for its first call). The counter is made first, by an upsert
   * that changes nothing once it exists, then incremented without upsert: an upserting
   * findOneAndUpdate racing others answers a duplicate key on MongoDB, and no document on
   * SecantusDB while still counting, which would lose a turn. */
  async claim(domainId: string, flowId: string, step: string): Promise<number> {
    const _id = `${domainId}|${flowId}|${step}`;
    const next = () => this.c.ringTurns.findOneAndUpdate({ _id }, { $inc: { turns: 1 } }, { returnDocument: 'after' });
    let after = await next();
    if (!after) {
      await this.c.ringTurns.updateOne({ _id }, { $setOnInsert: { turns: 0 } }, { upsert: true }).catch((err) => (isDuplicateKey(err) ? undefined : Promise.reject(err)));
      after = await next();
    }
    if (!after) throw new Error(`the turns of ring group ${_id} could not be counted`);
    return after.turns - 1;
  }

  /** The turn the group's next call would take, not taken. */
  async next(domainId: string, flowId: string, step: string): Promise<number> {
    return (await this.c.ringTurns.findOne({ _id: `${domainId}|${flowId}|${step}` }))?.turns ?? 0;
  }

  /** The member who last answered `caller` within `days`, or null. */
  async stickyMember(domainId: string, caller: string | null, days: number, now: Date): Promise<string | null> {
    if (!caller) return null;
    const last = await this.c.stickyAnswers.findOne({ _id: `${domainId}|${caller}` });
    return last && now.getTime() - last.at.getTime() <= days * DAY_MS ? last.member : null;
  }

  async answered(domainId: string, caller: string | null, member: string, at: Date): Promise<void> {
    if (!caller) return;
    await this.c.stickyAnswers.updateOne({ _id: `${domainId}|${caller}` }, { $set: { member, at } }, { upsert: true });
  }
}
