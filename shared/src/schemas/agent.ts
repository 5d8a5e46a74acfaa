// Wire formats of the call-center agent service (spec document 3): /agent-api/* and webhook pushes.
import { z } from 'zod';
import { callerPhone } from './telephony.ts';
import { isCalendarDay, phoneDigits, wireInt, wireText } from './wire.ts';

/** `Y-m-d H:i:s` as wall-clock parts; the time zone is the dialled number's domain's. */
export const wallDateTime = wireText.refine((value) => {
  // One check, not a regex then a refinement: zod runs a refinement even after the regex failed.
  const m = /^(\d{4}-\d\d-\d\d) (\d\d):(\d\d):(\d\d)$/.exec(value);
  return m !== null && isCalendarDay(m[1]!) && +m[2]! < 24 && +m[3]! < 60 && +m[4]! < 60;
}, 'must be a real date and time YYYY-MM-DD HH:MM:SS');

const agentName = wireText.trim().min(1, 'must not be empty').max(254, 'must be at most 254 characters');

export const callStartRequest = z.object({
  callerPhone: callerPhone.optional(), // omitted, empty or `anonymous`: any caller
  destinationPhone: phoneDigits,
  startDate: wallDateTime,
  agent: agentName.optional(),
});
export type CallStartRequest = z.infer<typeof callStartRequest>;

export const setAgentRequest = z.object({ callId: wireInt, agent: agentName });

const day = wireText.refine(isCalendarDay, 'must be a date YYYY-MM-DD');
export const agentStatsRequest = z.object({ startDate: day.optional(), endDate: day.optional() });

export const deliveryLogRequest = z.object({
  callId: wireInt.optional(),
  limit: wireInt.refine((n) => n >= 1 && n <= 1000, 'must be between 1 and 1000').default(100),
});

export interface AgentCall {
  id: number;
  startDate: string;
  status: string;
  source: string;
  referrer: string | null;
  Keyword: string;
  agent: string | null;
  /** Ours (not in the spec): how sure the call's visit match is, and how many visits held the number. */
  matchConfidence?: 'certain' | 'likely' | 'possible' | 'none';
  matchCandidates?: number;
  /** Ours: the caller's first call to the domain; null for an anonymous caller or a call stored before it was kept. */
  firstCall: boolean | null;
}

export interface AgentView {
  id: number;
  pageTitle: string;
  url: string;
  createdAt: string;
}

export interface AgentProduct {
  id: number;
  name: string;
  quantity: number;
  costPerUnit: number;
  /** Webhook payloads only. */
  externalId?: string;
  details?: unknown;
}

export interface AgentCart {
  id: number;
  externalId: string;
  isLoggedIn: boolean;
  currency: string;
  status: number;
  totalCost: number;
  productsNb: number;
  createdAt: string;
  products: AgentProduct[];
}

export interface AgentOrder {
  id: number;
  agent: string | null;
  status: string;
  isSale: boolean;
  totalCost: number;
  createdAt: string;
  products: AgentProduct[];
  /** Webhook payloads only. */
  externalId?: string;
  cartId?: number | null;
  externalCartId?: string | null;
  currency?: string;
  source?: string;
}

export interface CallStartResult {
  call: AgentCall;
  views: AgentView[];
  currentCart: AgentCart | null;
  orders: AgentOrder[];
}

export type RealtimeData =
  | { callId: number; type: 'view'; view: AgentView; cart: null; order: null }
  | { callId: number; type: 'cart'; view: null; cart: AgentCart; order: null }
  | { callId: number; type: 'order'; view: null; cart: null; order: AgentOrder };

export interface AgentStats {
  agent: string;
  callsTaken: number;
  cartsTouched: number;
  cartValueBefore: number;
  cartValueAfter: number;
  ordersByPhone: number;
  sales: number;
  /** sales / callsTaken, 0 without calls. */
  conversionRate: number;
  revenue: number;
}
