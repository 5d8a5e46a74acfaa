// A ring group's targets made phones to ring for one call: members become their own numbers (skipped
// while they are unavailable, have no phone, or no longer belong to the account or see the domain),
// plain numbers stay; any number the account's dialling rules refuse now (dialling/: a premium
// line kept as a phone before the rules, a tracking number of the account) is skipped with why; then the order of ring-order.ts, a round-robin group's turn claimed atomically
// and a sticky caller's last answerer first. A call rung in turn comes back for its next leg with
// the order it was given (the targets' indexes), resolved again by `legsInOrder` without a new turn.
import { DiallingPolicies, type DiallingCollections } from '../dialling/policies.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import { maySee } from '../team/roles.ts';
import type { FlowCollections } from './documents.ts';
import type { FlowAction } from './engine.ts';
import { ringOrder, type RingCandidate } from './ring-order.ts';
import { RingTurns } from './ring-turns.ts';

type RingAction = Extract<FlowAction, { kind: 'ring' }>;
type Targets = RingAction['targets'];

export interface RingLeg extends RingCandidate {
  number: string;
  /** The target's place in the ring group's `targets`. */
  index: number;
}

export interface RingPlan {
  /** The legs in the order they ring (all at once when `simultaneous`). */
  legs: RingLeg[];
  simultaneous: boolean;
  /** Members the group names who cannot be rung now, and why, for the call's path. */
  skipped: string[];
  /** Every target is a member who left the account or the domain: the group is broken, not unanswered (issue 80). */
  allGone: boolean;
}

export interface RingCall {
  domainId: string;
  accountId: string;
  flowId: string;
  caller: string | null;
  at: Date;
}

type Candidate = RingCandidate & { index: number };

/** Each target as a phone to ring, or why it cannot be rung. */
async function candidatesOf(c: RingCollections, targets: Targets, call: Pick<RingCall, 'domainId' | 'accountId'>): Promise<{ candidates: Candidate[]; skipped: string[]; allGone: boolean }> {
  const usernames = targets.flatMap((t) => ('member' in t ? [t.member] : []));
  const users = new Map((usernames.length ? await c.users.find({ _id: { $in: usernames }, accountId: call.accountId }).toArray() : []).map((u) => [u._id, u]));
  const numbers = targets.map((t) => ('number' in t ? t.number : (users.get(t.member)?.phone ?? null)));
  const dialled = numbers.flatMap((number, i) => (number ? [{ field: String(i), number }] : []));
  const refused = new Map([...(await new DiallingPolicies(c).refusals(call.accountId, dialled))].map(([at, why]) => [Number(dialled[at]!.field), why.slice(why.indexOf(': ') + 2)]));
  const skipped: string[] = [];
  let gone = 0;
  const candidates = targets.map((target, index): Candidate => {
    const barred = refused.get(index);
    if ('number' in target) {
      if (barred) skipped.push(`${target.name ?? target.number}: ${barred}`);
      return { index, member: null, number: target.number, name: target.name ?? target.number, weight: target.weight, reachable: !barred };
    }
    const user = users.get(target.member);
    if (!user || !maySee(user, call.domainId)) gone++;
    const why = !user || !maySee(user, call.domainId) ? 'no longer a member who sees this domain' : user.available === false ? 'unavailable' : !user.phone ? 'no phone set' : (barred ?? null);
    if (why) skipped.push(`${target.member}: ${why}`);
    return { index, member: target.member, number: user?.phone ?? null, name: target.member, weight: target.weight, reachable: why === null };
  });
  return { candidates, skipped, allGone: gone === targets.length };
}

/** `peek`: the turn the next call would take, not taken (the simulator, /telephony/route's answer). */
/** What a ring group's plan reads: the flows' turns, the members, who last answered a caller. */
export type RingCollections = FlowCollections & TeamCollections & Pick<TelephonyCollections, 'stickyAnswers'> & DiallingCollections;

export async function planRing(c: RingCollections, ring: RingAction, call: RingCall, { peek = false } = {}): Promise<RingPlan> {
  const { candidates, skipped, allGone } = await candidatesOf(c, ring.targets, call);
  const turns = new RingTurns(c);
  const turning = ring.strategy === 'round-robin' && candidates.some((t) => t.reachable);
  const turn = !turning ? 0 : peek ? await turns.next(call.domainId, call.flowId, ring.at.step) : await turns.claim(call.domainId, call.flowId, ring.at.step);
  const sticky = ring.stickyDays ? await turns.stickyMember(call.domainId, call.caller, ring.stickyDays, call.at) : null;
  return { legs: ringOrder(ring.strategy, candidates, turn, sticky) as RingLeg[], simultaneous: ring.strategy === 'simultaneous', skipped, allGone };
}

/** The legs of an order given before (target indexes), those still reachable. */
export async function legsInOrder(c: RingCollections, targets: Targets, order: number[], call: Pick<RingCall, 'domainId' | 'accountId'>): Promise<RingLeg[]> {
  const { candidates } = await candidatesOf(c, targets, call);
  return order.flatMap((i) => {
    const leg = candidates[i];
    return leg?.reachable ? [leg as RingLeg] : [];
  });
}
