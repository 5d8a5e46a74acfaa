// Ours: a form submission that is a lead, told to the domain's GA4 as `generate_lead` once (its id is
// the submission's), as a call lead is (telephony/lead-events.ts).
import { ga4Message } from '../analytics/ga4.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { VisitDoc } from '../tracking/documents.ts';
import type { OutboxMessage } from '../webhooks/documents.ts';
import type { FormDoc } from './documents.ts';

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
