// A ring group's targets made phones to ring for one call: members become their own numbers (skipped
// while they are unavailable, have no phone, or no longer belong to the account or see the domain),
// plain numbers stay; then the order of ring-order.ts, a round-robin group's turn claimed atomically
// and a sticky caller's last answerer first.
import type { TeamCollections } from '../team/documents.ts';
import { maySee } from '../team/roles.ts';
import type { FlowCollections } from './documents.ts';
import type { FlowAction } from './engine.ts';
import { ringOrder, type RingCandidate } from './ring-order.ts';
import { RingTurns } from './ring-turns.ts';

type RingAction = Extract<FlowAction, { kind: 'ring' }>;

export interface RingLeg extends RingCandidate {
  number: string;
}

export interface RingPlan {
  /** The legs in the order they ring (all at once when `simultaneous`). */
  legs: RingLeg[];
  simultaneous: boolean;
  /** Members the group names who cannot be rung now, and why, for the call's path. */
  skipped: string[];
}

export async function planRing(c: FlowCollections & TeamCollections, ring: RingAction, call: { domainId: string; accountId: string; flowId: string; caller: string | null; at: Date }): Promise<RingPlan> {
  const usernames = ring.targets.flatMap((t) => ('member' in t ? [t.member] : []));
  const users = new Map((usernames.length ? await c.users.find({ _id: { $in: usernames }, accountId: call.accountId }).toArray() : []).map((u) => [u._id, u]));
  const skipped: string[] = [];
  const candidates: RingCandidate[] = ring.targets.map((target) => {
    if ('number' in target) return { member: null, number: target.number, name: target.name ?? target.number, weight: target.weight, reachable: true };
    const user = users.get(target.member);
    const why = !user || !maySee(user, call.domainId) ? 'no longer a member who sees this domain' : user.available === false ? 'unavailable' : !user.phone ? 'no phone set' : null;
    if (why) skipped.push(`${target.member}: ${why}`);
    return { member: target.member, number: user?.phone ?? null, name: target.member, weight: target.weight, reachable: why === null };
  });
  const turns = new RingTurns(c);
  const turn = ring.strategy === 'round-robin' ? await turns.claim(call.domainId, call.flowId, ring.at.step) : 0;
  const sticky = ring.stickyDays ? await turns.stickyMember(call.domainId, call.caller, ring.stickyDays, call.at) : null;
  return { legs: ringOrder(ring.strategy, candidates, turn, sticky) as RingLeg[], simultaneous: ring.strategy === 'simultaneous', skipped };
}
