// A call that becomes a lead is told to the domain's GA4 as `generate_lead`, once per call: the call
// claims its event by setting `leadEventAt` (an update no other write of the call touches), and only
// the write that made the claim queues it. (A process dying in between loses that one event.)
import { ga4Message } from '../analytics/ga4.ts';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import type { VisitDoc, TrackingCollections } from '../tracking/documents.ts';
import type { OutboxMessage, WebhookCollections } from '../webhooks/documents.ts';
import { Outbox } from '../webhooks/outbox.ts';
import type { CallDoc, TelephonyCollections } from './documents.ts';

export class LeadEvents {
  private readonly outbox: Outbox;

  constructor(
    private readonly c: TelephonyCollections & DomainCollections & TrackingCollections & WebhookCollections,
    private readonly ga4Endpoint: string,
  ) {
    this.outbox = new Outbox(c);
  }

  async changed(before: CallDoc | null, after: CallDoc, now = new Date()): Promise<void> {
    if (after.lead !== true || before?.lead === true) return;
    const domain = await this.c.domains.findOne({ _id: after.domainId });
    if (!domain?.ga4MeasurementId || !domain.ga4ApiSecret) return;
    const claimed = await this.c.calls.updateOne({ _id: after._id, leadEventAt: { $exists: false } }, { $set: { leadEventAt: now } });
    if (claimed.modifiedCount === 0) return;
    const ga = after.visitId !== null ? (await this.c.visits.findOne({ _id: after.visitId }, { projection: { ga: 1 } }))?.ga : undefined;
    const event = leadEvent(domain, after, this.ga4Endpoint, ga);
    if (event) await this.outbox.enqueue(event, now);
  }
}

/** GA4's recommended `generate_lead` of a call that became a lead, with its source and keyword. Its
 * own stream: GA4 being slow or down never holds back the call center's pushes of the call. */
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
