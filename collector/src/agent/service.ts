// The call-center agent service: the ringing call's record and what is known of its caller,
// agents attached to calls, and their statistics. Knows nothing of HTTP.
import { toCents, type AgentStats, type CallStartRequest, type CallStartResult } from '@ringtrail/shared';
import type { AccountDoc } from '../team/documents.ts';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import { CART_OPEN, type CartDoc, type OrderDoc, type CommerceCollections } from '../commerce/documents.ts';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import { addDays, dayCount, localDaysBetween, localInstant, localTime, MAX_RANGE_DAYS } from '../domains/time-zone.ts';
import { AgentFailure } from '../http/agent-envelope.ts';
import type { LiveCalls } from './live-calls.ts';
import { callShape, cartShape, orderShape, viewShape } from './shapes.ts';
import type { TrackingCollections } from '../tracking/documents.ts';

/** callStart matches calls that started this close to the given startDate, either way. */
export const CALL_MATCH_WINDOW_MS = 5 * 60_000;

export interface StatsRange {
  startDate?: string;
  endDate?: string;
}

export class AgentService {
  constructor(
    private readonly c: DomainCollections & TrackingCollections & TelephonyCollections & CommerceCollections,
    private readonly liveCalls: LiveCalls,
  ) {}

  /** Calls on the dialled number within the window, closest first; none is an empty list. */
  async callStart(account: AccountDoc, req: CallStartRequest, now = new Date()): Promise<CallStartResult[]> {
    const number = await this.c.trackingNumbers.findOne({ _id: req.destinationPhone });
    const domain = number && (await this.c.domains.findOne({ _id: number.domainId }));
    if (!domain || domain.accountId !== account._id) return [];
    const [day, time] = req.startDate.split(' ') as [string, string];
    const at = localInstant(day, time, domain.timeZone).getTime();
    const near = await this.c.calls
      .find({ trackingNumber: req.destinationPhone, startedAt: { $gte: new Date(at - CALL_MATCH_WINDOW_MS), $lte: new Date(at + CALL_MATCH_WINDOW_MS) } })
      .toArray();
    const matched = near
      .filter((call) => call.domainId === domain._id && (req.callerPhone == null || call.caller === req.callerPhone))
      .sort((a, b) => Math.abs(a.startedAt.getTime() - at) - Math.abs(b.startedAt.getTime() - at) || a._id - b._id);
    const results: CallStartResult[] = [];
    for (const call of matched) {
      if (req.agent) await this.setAgent(call, req.agent);
      const withAgent = req.agent ? { ...call, agent: req.agent } : call;
      // A blocked caller's call was refused: nothing of it is pushed.
      if (call.status !== 'CALLER_PHONE_BLACKLISTED') await this.liveCalls.open(withAgent, account._id, now);
      results.push(await this.contextOf(domain, withAgent));
    }
    return results;
  }

  async setAgentToCall(account: AccountDoc, callId: number, agent: string): Promise<{ callId: number; agent: string }> {
    const call = await this.c.calls.findOne({ _id: callId });
    const domain = call && (await this.c.domains.findOne({ _id: call.domainId }));
    if (!call || !domain || domain.accountId !== account._id) throw new AgentFailure(`Unknown callId ${callId}`);
    await this.setAgent(call, agent);
    return { callId, agent };
  }

  /** Per agent: calls taken, carts tied to their calls (value before and now), orders by phone, sales.
   * A range of at most MAX_RANGE_DAYS (by default the last ones up to `endDate` or today), read
   * through cursors of the few fields it sums: memory grows with the agents, not with the calls. */
  /** `onlyDomains`: the account's domains to count (a member sees the domains granted them). */
  async stats(account: AccountDoc, range: StatsRange, now = new Date(), onlyDomains?: string[]): Promise<AgentStats[]> {
    const domains = await this.c.domains.find({ accountId: account._id, ...(onlyDomains ? { _id: { $in: onlyDomains } } : {}) }, { projection: { timeZone: 1 } }).toArray();
    const domainIds = domains.map((d) => d._id);
    const timeZone = domains[0]?.timeZone ?? 'UTC'; // an account's statistics use its first domain's days
    const days = statsDays(range, timeZone, now);
    const between = (field: string) => ({ [field]: localDaysBetween(days.startDate, days.endDate, timeZone) });
    const byAgent = new Map<string, AgentStats>();
    const statsOf = (agent: string) => {
      let s = byAgent.get(agent);
      if (!s) byAgent.set(agent, (s = { agent, callsTaken: 0, cartsTouched: 0, cartValueBefore: 0, cartValueAfter: 0, ordersByPhone: 0, sales: 0, conversionRate: 0, revenue: 0 }));
      return s;
    };
    const agentOfCall = new Map<number, string>();
    for await (const call of this.c.calls.find({ domainId: { $in: domainIds }, agent: { $type: 'string' }, ...between('startedAt') }, { projection: { agent: 1 } })) {
      agentOfCall.set(call._id, call.agent!);
      statsOf(call.agent!).callsTaken++;
    }
    const agentOf = (r: Pick<CartDoc | OrderDoc, 'agent' | 'callId'>) => r.agent ?? (r.callId !== null ? agentOfCall.get(r.callId) : undefined);
    for await (const cart of this.c.carts.find({ domainId: { $in: domainIds }, ...between('updatedAt') }, { projection: { agent: 1, callId: 1, valueBeforeAgent: 1, totalCost: 1 } })) {
      const agent = agentOf(cart);
      if (!agent) continue;
      const s = statsOf(agent);
      s.cartsTouched++;
      s.cartValueBefore += cart.valueBeforeAgent ?? 0;
      s.cartValueAfter += cart.totalCost;
    }
    for await (const order of this.c.orders.find({ domainId: { $in: domainIds }, ...between('createdAt') }, { projection: { agent: 1, callId: 1, attribution: 1, convertedAt: 1, totalCost: 1 } })) {
      const agent = order.attribution?.agent ?? agentOf(order);
      if (!agent) continue;
      const s = statsOf(agent);
      if (order.callId !== null) s.ordersByPhone++;
      if (order.convertedAt) {
        s.sales++;
        s.revenue += order.totalCost;
      }
    }
    return [...byAgent.values()]
      .map((s) => ({ ...s, cartValueBefore: toCents(s.cartValueBefore), cartValueAfter: toCents(s.cartValueAfter), revenue: toCents(s.revenue), conversionRate: s.callsTaken ? Math.round((s.sales / s.callsTaken) * 1000) / 1000 : 0 }))
      .sort((a, b) => a.agent.localeCompare(b.agent));
  }

  private async setAgent(call: CallDoc, agent: string): Promise<void> {
    await this.c.calls.updateOne({ _id: call._id }, { $set: { agent } });
  }

  /** What is known of a call's visitor: the visit's pages (up to `until`, if given), the current cart, the orders. */
  async contextOf(domain: DomainDoc, call: CallDoc, { until }: { until?: Date } = {}): Promise<CallStartResult> {
    const tz = domain.timeZone;
    const mine = [...(call.visitId !== null ? [{ visitId: call.visitId }] : []), { callId: call._id }];
    const [views, carts, orders] = await Promise.all([
      call.visitId !== null ? this.c.views.find({ visitId: call.visitId, ...(until ? { createdAt: { $lte: until } } : {}) }).sort({ createdAt: 1, _id: 1 }).toArray() : [],
      this.c.carts.find({ domainId: domain._id, $or: mine }).sort({ updatedAt: -1, _id: -1 }).toArray(),
      this.c.orders.find({ domainId: domain._id, $or: mine }).sort({ createdAt: 1, _id: 1 }).toArray(),
    ]);
    const current = carts.find((cart) => cart.status === CART_OPEN) ?? null;
    return {
      call: callShape(call, tz),
      views: views.map((v) => viewShape(v, tz)),
      currentCart: current && cartShape(current, tz, 'callStart'),
      orders: orders.map((o) => orderShape(o, tz, 'callStart')),
    };
  }
}

/** The days statistics cover: `startDate`..`endDate`, both included, at most MAX_RANGE_DAYS; a missing
 * end is today (in `timeZone`), a missing start the first of the longest range that ends there. */
function statsDays(range: StatsRange, timeZone: string, now: Date): { startDate: string; endDate: string } {
  const endDate = range.endDate ?? (range.startDate ? addDays(range.startDate, MAX_RANGE_DAYS - 1) : localTime(now, timeZone).day);
  const startDate = range.startDate ?? addDays(endDate, 1 - MAX_RANGE_DAYS);
  if (startDate > endDate) throw new AgentFailure('Invalid parameter endDate: before startDate');
  if (dayCount(startDate, endDate) > MAX_RANGE_DAYS) throw new AgentFailure(`Invalid parameter endDate: a request covers at most ${MAX_RANGE_DAYS} days`);
  return { startDate, endDate };
}
