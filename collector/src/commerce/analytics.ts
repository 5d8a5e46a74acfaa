// An order's first sale told to the domain's GA4 as `purchase` (analytics/ga4.ts), through the
// outbox: queued once per order by the conversion's claim (commerce/service.ts); its id is fixed per
// order all the same, and GA4 drops a repeated transaction_id.
import { ga4Message } from '../analytics/ga4.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { OrderDoc } from './documents.ts';
import type { OutboxMessage } from '../webhooks/documents.ts';
import type { VisitDoc } from '../tracking/documents.ts';

/** An order's first sale. */
export function purchaseEvent(domain: DomainDoc, order: OrderDoc, endpoint: string, ga?: VisitDoc['ga']): OutboxMessage | null {
  return ga4Message(domain, endpoint, {
    id: `purchase_${domain._id}_${order._id}`,
    stream: `order:${order._id}`,
    name: 'purchase',
    ga,
    visitId: order.visitId,
    contact: `call.${order.callId}`,
    params: {
      transaction_id: order.externalId,
      currency: order.currency,
      value: order.totalCost,
      ...(order.attribution?.source ? { source: order.attribution.source } : {}),
      ...(order.attribution?.agent ? { agent: order.attribution.agent } : {}),
      items: order.products.map((p) => ({ item_id: p.externalId, item_name: p.name, quantity: p.quantity, price: p.costPerUnit })),
    },
  });
}
