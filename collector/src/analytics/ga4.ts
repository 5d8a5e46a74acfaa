// One GA4 Measurement Protocol event as an outbox message: what every family that tells GA4
// something shares (commerce's purchase, telephony's and forms' generate_lead). Each family builds
// its own event from its own documents; none reaches into another's for it.
import type { DomainDoc } from '../domains/documents.ts';
import type { VisitDoc } from '../tracking/documents.ts';
import type { OutboxMessage } from '../webhooks/documents.ts';

export const DEFAULT_GA4_ENDPOINT = 'https://www.google-analytics.com/mp/collect';

export interface Ga4Event {
  /** The outbox id: one event per thing told, whoever queues it. */
  id: string;
  stream: string;
  name: string;
  params: Record<string, unknown>;
  /** The visitor's GA4 ids (the tracker reads them from GA4's cookies). */
  ga: VisitDoc['ga'];
  visitId: number | null;
  /** The client id without GA4's nor a visit's (`call.12` makes `ringtrail.call.12`). */
  contact: string;
}

/** The event as an outbox message, or null when the domain's GA4 is not set. Its client id joins the
 * event to the visitor's session; without it the visit (or the contact) stands for the visitor, and
 * GA4 counts the event unattributed. */
export function ga4Message(domain: DomainDoc, endpoint: string, event: Ga4Event): OutboxMessage | null {
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
