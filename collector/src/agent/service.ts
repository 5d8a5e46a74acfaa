// The call-center agent service: the ringing call's record and what is known of its caller,
// agents attached to calls, and their statistics. Knows nothing of HTTP.
import { toCents, type AgentStats, type CallStartRequest, type CallStartResult } from '@ringtrail/shared';
import type { AccountDoc } from '../manage/documents.ts';
import type { CallDoc } from '../telephony/documents.ts';
import type { CartDoc, OrderDoc } from '../commerce/documents.ts';
import type { Collections } from '../db/collections.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { localInstant, startOfLocalDay, nextDay } from '../domains/time-zone.ts';
import { AgentFailure } from '../http/agent-envelope.ts';
import type { LiveCalls } from './live-calls.ts';
import { CART_OPEN, callShape, cartShape, orderShape, viewShape } from './shapes.ts';

/** callStart matches calls that started this close to the given startDate, either way. */
export const CALL_MATCH_WINDOW_MS = 5 * 60_000;

export interface StatsRange {
  startDate?: string;
  endDate?: string;
}

export class AgentService {
  constructor(
    private readonly c: Collections,
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

  /** Per agent: calls taken, carts tied to their calls (value before and now), orders by phone, sales. */
  async stats(account: AccountDoc, range: StatsRange): Promise<AgentStats[]> {
    const domains = await this.c.domains.find({ accountId: account._id }).toArray();
    const domainIds = domains.map((d) => d._id);
    const timeZone = domains[0]?.timeZone ?? 'UTC'; // an account's statistics use its first domain's days
    const between = (field: string) => timeFilter(field, range, timeZone);
    const [calls, carts, orders] = await Promise.all([
      this.c.calls.find({ domainId: { $in: domainIds }, agent: { $type: 'string' }, ...between('startedAt') }).toArray(),
      this.c.carts.find({ domainId: { $in: domainIds }, ...between('updatedAt') }).toArray(),
      this.c.orders.find({ domainId: { $in: domainIds }, ...between('createdAt') }).toArray(),
    ]);
    const agentOfCall = new Map(calls.map((call) => [call._id, call.agent!]));
    const byAgent = new Map<string, AgentStats>();
    const statsOf = (agent: string) => {
      let s = byAgent.get(agent);
      if (!s) byAgent.set(agent, (s = { agent, callsTaken: 0, cartsTouched: 0, cartValueBefore: 0, cartValueAfter: 0, ordersByPhone: 0, sales: 0, conversionRate: 0, revenue: 0 }));
      return s;
    };
    const agentOf = (r: CartDoc | OrderDoc) => r.agent ?? (r.callId !== null ? agentOfCall.get(r.callId) : undefined);
    for (const call of calls) statsOf(call.agent!).callsTaken++;
    for (const cart of carts) {
      const agent = agentOf(cart);
      if (!agent) continue;
      const s = statsOf(agent);
      s.cartsTouched++;
      s.cartValueBefore += cart.valueBeforeAgent ?? 0;
      s.cartValueAfter += cart.totalCost;
    }
    for (const order of orders) {
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

/** Local days `startDate`..`endDate`, both included; either may be left out. */
function timeFilter(field: string, range: StatsRange, timeZone: string): Record<string, unknown> {
  const bounds: Record<string, Date> = {};
  if (range.startDate) bounds.$gte = startOfLocalDay(range.startDate, timeZone);
  if (range.endDate) bounds.$lt = startOfLocalDay(nextDay(range.endDate), timeZone);
  return Object.keys(bounds).length ? { [field]: bounds } : {};
}
