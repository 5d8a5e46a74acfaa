// A form submission from the tag: stored with its visit, source, keyword, click ids and touches,
// exactly as a call is attributed, and judged lead or spam by simple signals the owner can read:
// the tag's hidden field filled, or sent within FORM_TOO_FAST_MS of the page opening. Knows nothing of HTTP.
import { withoutSecrets } from './secret-fields.ts';
import { FORM_TOO_FAST_MS, type BrowserFormRequest } from '@ringtrail/shared';
import type { IdAllocator } from '../db/ids.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { countryOf } from '../domains/phone-numbers.ts';
import { braidsOf, sourceLabel } from '../tracking/attribution.ts';
import { touchesOf } from '../tracking/touches.ts';
import { contactOf } from './contact.ts';
import { nameOf } from './names.ts';
import type { People } from '../people/people.ts';
import { FormPush } from './form-push.ts';
import { DEFAULT_GA4_ENDPOINT } from '../analytics/ga4.ts';
import { formLeadEvent } from './form-lead-event.ts';
import { Outbox } from '../webhooks/outbox.ts';
import type { FormWrites } from './form-writes.ts';
import type { FormDoc, FormSpamReason } from './documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';

export function spamOf(req: Pick<BrowserFormRequest, 'honeypot' | 'elapsed_ms'>): Exclude<FormSpamReason, 'verdict'> | null {
  if (req.honeypot) return 'honeypot';
  if (req.elapsed_ms !== undefined && req.elapsed_ms < FORM_TOO_FAST_MS) return 'too-fast';
  return null;
}

export class FormSubmissions {
  constructor(
    private readonly c: TeamCollections & TrackingCollections & WebhookCollections,
    private readonly ids: IdAllocator,
    private readonly people: People,
    /** GA4's Measurement Protocol, where a lead is told as `generate_lead` (the domain's GA4). */
    private readonly ga4Endpoint = DEFAULT_GA4_ENDPOINT,
    private readonly writes: FormWrites,
    private readonly push = new FormPush(c),
    private readonly outbox = new Outbox(c),
  ) {}

  async submit(domain: DomainDoc, sent: BrowserFormRequest, now = new Date()): Promise<FormDoc> {
    const req = { ...sent, fields: withoutSecrets(sent.fields) };
    // Only the domain's own visit attributes it (a visit id of another domain is no one's here).
    const visit = req.visit_id > 0 ? await this.c.visits.findOne({ _id: req.visit_id, domainId: domain._id }) : null;
    const touches = visit ? await touchesOf(this.c, visit, now) : null;
    const spam = spamOf(req);
    const contact = contactOf(req.fields, countryOf(domain));
    const uniqueVisitorId = visit?.uniqueVisitorId ?? req.unique_visitor_id ?? null;
    const formId = await this.ids.next('form');
    const doc: FormDoc = {
      _id: formId,
      domainId: domain._id,
      submittedAt: now,
      pageUrl: req.url,
      formName: req.form_name || null,
      fields: req.fields,
      ...contact,
      visitId: visit?._id ?? null,
      uniqueVisitorId,
      source: visit ? sourceLabel(visit.attribution) : null,
      keyword: visit?.attribution.keyword ?? null,
      gclid: visit?.attribution.gclid ?? null,
      msclkid: visit?.attribution.msclkid ?? null,
      fbclid: visit?.attribution.fbclid ?? null,
      ...braidsOf(visit?.attribution),
      ...(visit?.adsDenied ? { adsDenied: true as const } : {}),
      lastTouch: touches?.lastTouch ?? null,
      firstTouch: touches?.firstTouch ?? null,
      lastNonDirect: touches?.lastNonDirect ?? null,
      signal: spam,
      spam,
      lead: spam === null,
      // A robot's submission joins no one: its made-up phone or address would join strangers. Nor
      // does anyone's: its keys link it to a person, but never join two (people/people.ts).
      personId: spam ? null : await this.people.join(domain._id, { ...contact, visitor: uniqueVisitorId }, now, { mayJoinPeople: false, contact: { kind: 'form', id: formId } }),
    };
    await this.writes.insert(domain, doc);
    const name = doc.personId !== null ? nameOf(req.fields) : null;
    if (name) await this.people.named(doc.personId!, name);
    await this.push.stored(doc, domain, now);
    const lead = doc.lead ? formLeadEvent(domain, doc, this.ga4Endpoint, visit?.ga) : null;
    if (lead) await this.outbox.enqueue(lead, now);
    return doc;
  }
}
