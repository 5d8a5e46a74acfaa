// The GA4 Measurement Protocol events, sent through the outbox: an order's first sale as `purchase`
// (queued once per order by the conversion's claim, commerce/service.ts; its id is fixed per order
// all the same, and GA4 drops a repeated transaction_id), and a call that becomes a lead as the
// recommended `generate_lead` (queued once per call, telephony/lead-events.ts).
import type { DomainDoc } from '../domains/documents.ts';
import type { OrderDoc } from './documents.ts';
import type { OutboxMessage } from '../webhooks/documents.ts';
import type { VisitDoc } from '../tracking/documents.ts';
import type { CallDoc } from '../telephony/documents.ts';

export const DEFAULT_GA4_ENDPOINT = 'https://www.google-analytics.com/mp/collect';

/** The domain's Measurement Protocol URL, or null when its GA4 is not set. */
function ga4Url(domain: DomainDoc, endpoint: string): string | null {
  if (!domain.ga4MeasurementId || !domain.ga4ApiSecret) return null;
  const url = new URL(endpoint);
  url.searchParams.set('measurement_id', domain.ga4MeasurementId);
  url.searchParams.set('api_secret', domain.ga4ApiSecret);
  return url.toString();
}

/** GA4's own client id joins the event to the visitor's session; without it the visit (or call)
 * stands for the visitor, and GA4 counts the event unattributed. */
const clientIdOf = (ga: VisitDoc['ga'], visitId: number | null, callId: number | null) => ga?.clientId ?? (visitId !== null ? `ringtrail.visit.${visitId}` : `ringtrail.call.${callId}`);

/** `ga`: GA4's ids of the buyer's visit (the tracker reads them from GA4's cookies), when known. */
export function purchaseEvent(domain: DomainDoc, order: OrderDoc, endpoint: string, ga?: VisitDoc['ga']): OutboxMessage | null {
  const url = ga4Url(domain, endpoint);
  if (!url) return null;
  const body = {
    client_id: clientIdOf(ga, order.visitId, order.callId),
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
    url,
    contentType: 'application/json',
    body: JSON.stringify(body),
    signed: false,
  };
}

/** GA4's recommended `generate_lead` of a call that became a lead, with its source and keyword. Its own
 * stream: GA4 being slow or down never holds back the call center's pushes of the call. */
export function leadEvent(domain: DomainDoc, call: CallDoc, endpoint: string, ga?: VisitDoc['ga']): OutboxMessage | null {
  const url = ga4Url(domain, endpoint);
  if (!url) return null;
  const body = {
    client_id: clientIdOf(ga, call.visitId, call._id),
    events: [
      {
        name: 'generate_lead',
        params: {
          currency: domain.currency,
          value: call.revenue,
          lead_source: 'phone_call',
          ...(ga?.sessionId ? { session_id: ga.sessionId } : {}),
          ...(call.source ? { source: call.source } : {}),
          ...(call.keyword ? { keyword: call.keyword } : {}),
        },
      },
    ],
  };
  return { id: `lead_${domain._id}_${call._id}`, accountId: domain.accountId, stream: `lead:${call._id}`, kind: 'analytics', label: 'generate_lead', url, contentType: 'application/json', body: JSON.stringify(body), signed: false };
}
