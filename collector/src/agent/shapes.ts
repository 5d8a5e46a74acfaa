// Calls, views, carts and orders as the agent service shows them (callStart and webhook pushes).
// Dates are wall-clock times of the domain's time zone, as the call center dials and reads them.
import type { AgentCall, AgentCart, AgentOrder, AgentProduct, AgentView } from '@ringtrail/shared';
import type { CallDoc } from '../telephony/documents.ts';
import type { CartDoc, OrderDoc, ProductLine } from '../commerce/documents.ts';
import type { ViewDoc } from '../tracking/documents.ts';
import { localTime } from '../domains/time-zone.ts';

/** A call whose outcome is not reported yet (ringing or going on). */
export const CALL_IN_PROGRESS = 'IN_PROGRESS';

/** Webhook payloads carry more than callStart: product and order external ids, details, currency... */
export type ShapeFor = 'callStart' | 'webhook';

export function wallClock(date: Date, timeZone: string): string {
  const { day, time } = localTime(date, timeZone);
  return `${day} ${time}`;
}

export function callShape(call: CallDoc, timeZone: string): AgentCall {
  return {
    id: call._id,
    startDate: wallClock(call.startedAt, timeZone),
    status: call.status ?? CALL_IN_PROGRESS,
    source: call.source ?? '',
    referrer: call.referrer || null,
    Keyword: call.keyword ?? '',
    agent: call.agent ?? null,
    ...(call.matchConfidence ? { matchConfidence: call.matchConfidence, matchCandidates: call.matchCandidates ?? 0 } : {}),
    firstCall: call.firstCall ?? null,
  };
}

export function viewShape(view: ViewDoc, timeZone: string): AgentView {
  return { id: view._id, pageTitle: view.pageTitle, url: view.url, createdAt: wallClock(view.createdAt, timeZone) };
}

/** Product ids are line numbers (1, 2, ...): the service keeps no catalogue; the shop's own id is `externalId`. */
function productShapes(products: ProductLine[], shapeFor: ShapeFor): AgentProduct[] {
  return products.map((p, i) => ({
    id: i + 1,
    name: p.name,
    quantity: p.quantity,
    costPerUnit: p.costPerUnit,
    ...(shapeFor === 'webhook' ? { externalId: p.externalId, details: p.details ?? [] } : {}),
  }));
}

export function cartShape(cart: CartDoc, timeZone: string, shapeFor: ShapeFor): AgentCart {
  return {
    id: cart._id,
    externalId: cart.externalId,
    isLoggedIn: cart.isLoggedIn,
    currency: cart.currency,
    status: cart.status,
    totalCost: cart.totalCost,
    productsNb: cart.products.length,
    createdAt: wallClock(cart.createdAt, timeZone),
    products: productShapes(cart.products, shapeFor),
  };
}

export function orderShape(order: OrderDoc, timeZone: string, shapeFor: ShapeFor): AgentOrder {
  return {
    id: order._id,
    agent: order.agent,
    status: order.status,
    isSale: order.isSale,
    totalCost: order.totalCost,
    createdAt: wallClock(order.createdAt, timeZone),
    products: productShapes(order.products, shapeFor),
    ...(shapeFor === 'webhook'
      ? { externalId: order.externalId, cartId: order.cartId, externalCartId: order.externalCartId, currency: order.currency, source: order.attribution?.source ?? order.source ?? '' }
      : {}),
  };
}
