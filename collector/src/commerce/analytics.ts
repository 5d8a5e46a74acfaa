// The e-commerce analytics event of an order's first sale: a GA4 Measurement Protocol `purchase`,
// sent through the outbox. Queued once per order by the conversion's claim (commerce/service.ts);
// its id is fixed per order all the same, and GA4 drops a repeated transaction_id.
import type { DomainDoc } from '../domains/documents.ts';
import type { OrderDoc } from './documents.ts';
import type { OutboxMessage } from '../webhooks/documents.ts';
import type { VisitDoc } from '../tracking/documents.ts';

/** `ga`: GA4's ids of the buyer's visit (the tracker reads them from GA4's cookies), when known. */
export function purchaseEvent(domain: DomainDoc, order: OrderDoc, endpoint: string, ga?: VisitDoc['ga']): OutboxMessage | null {
  if (!domain.ga4MeasurementId || !domain.ga4ApiSecret) return null;
  const url = new URL(endpoint);
  url.searchParams.set('measurement_id', domain.ga4MeasurementId);
  url.searchParams.set('api_secret', domain.ga4ApiSecret);
  const body = {
    // GA4's own client id joins the sale to the visitor's session; without it the visit (or call)
    // stands for the buyer, and GA4 counts the sale unattributed.
    client_id: ga?.clientId ?? (order.visitId !== null ? `ringtrail.visit.${order.visitId}` : `ringtrail.call.${order.callId}`),
    events: [
      {
        name: 'purchase',
        params: {
          transaction_id: order.externalId,
          ...(ga?.sessionId ? { session_id: ga.sessionId } : {}),
          currency: order.currency,
          value: order.totalCost,
          ...(order.attribution?.source ? { source: order.attribution.source } : {}),
          ...(order.attribution?.agent ? { agent: order.attribution.agent } : {}),
          items: order.products.map((p) => ({ item_id: p.externalId, item_name: p.name, quantity: p.quantity, price: p.costPerUnit })),
        },
      },
    ],
  };
  return {
    id: `purchase_${domain._id}_${order._id}`,
    accountId: domain.accountId,
    stream: `order:${order._id}`,
    kind: 'analytics',
    label: 'purchase',
    url: url.toString(),
    contentType: 'application/json',
    body: JSON.stringify(body),
    signed: false,
  };
}
