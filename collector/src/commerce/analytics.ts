// The GA4 Measurement Protocol events, sent through the outbox: an order's first sale as `purchase`
// (queued once per order by the conversion's claim, commerce/service.ts; its id is fixed per order
// all the same, and GA4 drops a repeated transaction_id), and a call that becomes a lead as the
// recommended `generate_lead` (queued once per call, telephony/lead-events.ts).
import type { FormDoc } from '../forms/documents.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { OrderDoc } from './documents.ts';
import type { OutboxMessage } from '../webhooks/documents.ts';
import type { VisitDoc } from '../tracking/documents.ts';
import type { CallDoc } from '../telephony/documents.ts';

export const DEFAULT_GA4_ENDPOINT = 'https://www.google-analytics.com/mp/collect';

/** One GA4 event as an outbox message, or null when the domain's GA4 is not set. `ga`: the visitor's
 * GA4 ids (the tracker reads them from GA4's cookies): its client id joins the event to the visitor's
 * session; without it the visit (or call) stands for the visitor, and GA4 counts the event unattributed. */
function ga4Message(
  domain: DomainDoc,
  endpoint: string,
  /** `contact`: the client id without GA4's nor a visit's (`ringtrail.call.12`). */
  event: { id: string; stream: string; name: string; params: Record<string, unknown>; ga: VisitDoc['ga']; visitId: number | null; contact: string },
): OutboxMessage | null {
  if (!domain.ga4MeasurementId || !domain.ga4ApiSecret) return null;
  const url = new URL(endpoint);
  url.searchParams.set('measurement_id', domain.ga4MeasurementId);
  url.searchParams.set('api_secret', domain.ga4ApiSecret);
  const { ga, visitId, contact } = event;
  const body = {
    client_id: ga?.clientId ?? (visitId !== null ? `ringtrail.visit.${visitId}` : `ringtrail.${contact}`),
    events: [{ name: event.name, params: { ...(ga?.sessionId ? { session_id: ga.sessionId } : {}), ...event.params } }],
  };
  return { id: event.id, accountId: domain.accountId, stream: event.stream, kind: 'analytics', label: event.name, url: url.toString(), contentType: 'application/json', body: JSON.stringify(body), signed: false };
}

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

/** GA4's recommended `generate_lead` of a call that became a lead, with its source and keyword. Its own
 * stream: GA4 being slow or down never holds back the call center's pushes of the call. */
/** Ours: a form submission that is a lead, once (its id is the submission's). */
export function formLeadEvent(domain: DomainDoc, form: FormDoc, endpoint: string, ga?: VisitDoc['ga']): OutboxMessage | null {
  return ga4Message(domain, endpoint, {
    id: `lead_${domain._id}_form_${form._id}`,
    stream: `form-lead:${form._id}`,
    name: 'generate_lead',
    ga,
    visitId: form.visitId,
    contact: `form.${form._id}`,
    params: { currency: domain.currency, value: 0, lead_source: 'form', ...(form.source ? { source: form.source } : {}), ...(form.keyword ? { keyword: form.keyword } : {}) },
  });
}

export function leadEvent(domain: DomainDoc, call: CallDoc, endpoint: string, ga?: VisitDoc['ga']): OutboxMessage | null {
  return ga4Message(domain, endpoint, {
    id: `lead_${domain._id}_${call._id}`,
    stream: `lead:${call._id}`,
    name: 'generate_lead',
    ga,
    visitId: call.visitId,
    contact: `call.${call._id}`,
    params: {
      currency: domain.currency,
      value: call.revenue,
      lead_source: 'phone_call',
      ...(call.source ? { source: call.source } : {}),
      ...(call.keyword ? { keyword: call.keyword } : {}),
    },
  });
}
