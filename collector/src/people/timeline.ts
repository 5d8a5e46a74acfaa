// A person's timeline: their visits (by their visitor ids), calls, texts (by their numbers), form
// submissions and sales (the orders of their visits and calls), in time order, and their first
// touch; each kind at most TIMELINE_MAX, the latest. Numbers as the domain's caller privacy shows
// them. Knows nothing of HTTP.
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import { maskCaller } from '../domains/caller-privacy.ts';
import { countryOf, nationalOf } from '../domains/phone-numbers.ts';
import { withPhoneDisplay } from '../domains/phone-display.ts';
import { outcomeApart } from '../telephony/outcome.ts';
import { sourceLabel } from '../tracking/attribution.ts';
import type { Touch } from '../tracking/touches.ts';
import type { PossibleMatch, PeopleCollections } from './documents.ts';
import { currentPerson, keysOfPerson } from './people.ts';
import { PersonContacts } from './person-contacts.ts';
import type { ContactKind } from './contact-entries.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { CommerceCollections } from '../commerce/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';

const TIMELINE_MAX = 200;

export type TimelineEvent =
  | { type: 'visit'; at: Date; visitId: number; source: string; keyword: string | null; landingUrl: string }
  | { type: 'call'; at: Date; callId: number; status: string | null; outcome?: string | null; duration: number; source: string | null; keyword: string | null; lead: boolean | null; recording: boolean }
  | { type: 'sms'; at: Date; smsId: number; message: string }
  | { type: 'form'; at: Date; formId: number; pageUrl: string; source: string | null; fields: Record<string, string>; lead: boolean; spam: string | null }
  | { type: 'sale'; at: Date; orderId: string; status: string; totalCost: number; currency: string; callId: number | null };

export interface Timeline {
  personId: number;
  phones: string[];
  emails: string[];
  firstTouch: Touch | null;
  events: TimelineEvent[];
  /** When the person was erased on request (erase.ts): nothing of them is left to show. */
  erasedAt: Date | null;
  /** Contacts that named this person and others (a form with one's e-mail and another's phone), kept
   * apart: the other people, for a person to merge by hand. */
  possibleMatches: { at: Date; contact: PossibleMatch['contact']; people: number[] }[];
  /** Their numbers as the domain's country writes them, where it shows callers whole. */
  phoneDisplay?: Record<string, string>;
}

export async function timelineOf(c: PeopleCollections & DomainCollections & TrackingCollections & TelephonyCollections & ReportCollections & FormCollections & CommerceCollections, domain: DomainDoc, personId: number): Promise<Timeline> {
  // Their keys and latest contacts by `_id` (person-contacts.ts), then those contacts by `_id`.
  const entries = new PersonContacts(c);
  const [{ phones, emails, visitors }, contacts, person] = await Promise.all([keysOfPerson(c, personId), entries.contacts(personId, 2 * TIMELINE_MAX), c.people.findOne({ _id: personId }, { projection: { erasedAt: 1, possibleMatches: 1 } })]);
  const idsOf = (kind: ContactKind) => contacts.filter((x) => x.kind === kind).slice(0, TIMELINE_MAX).map((x) => x.id);
  const [calls, forms, visits, texts] = await Promise.all([
    c.calls.find({ _id: { $in: idsOf('call') }, domainId: domain._id }).toArray(),
    c.forms.find({ _id: { $in: idsOf('form') }, domainId: domain._id }).toArray(),
    visitors.length ? c.visits.find({ domainId: domain._id, uniqueVisitorId: { $in: visitors } }, { sort: { createdAt: -1 }, limit: TIMELINE_MAX }).toArray() : [],
    phones.length ? c.sms.find({ domainId: domain._id, caller: { $in: phones } }, { sort: { sentAt: -1 }, limit: TIMELINE_MAX }).toArray() : [],
  ]);
  // Their sales: the orders of their visits and calls (through the orders' indexes by visit and by call).
  const refs = [...new Set([...visits.map((v) => v._id), ...calls.map((call) => call.visitId), ...forms.map((f) => f.visitId)].filter((id): id is number => id !== null))].map((visitId) => ({ visitId }));
  const orderRefs = [...refs, ...calls.map((call) => ({ callId: call._id }))];
  const sales = orderRefs.length ? await c.orders.find({ $or: orderRefs, domainId: domain._id, isSale: true }, { sort: { createdAt: -1 }, limit: TIMELINE_MAX }).toArray() : [];
  const events: TimelineEvent[] = [
    ...visits.map((v): TimelineEvent => ({ type: 'visit', at: v.createdAt, visitId: v._id, source: sourceLabel(v.attribution), keyword: v.attribution.keyword, landingUrl: v.landingUrl })),
    ...calls.map((call): TimelineEvent => ({ type: 'call', at: call.startedAt, callId: call._id, status: call.status, ...outcomeApart(call), duration: call.duration, source: call.source, keyword: call.keyword, lead: call.lead ?? null, recording: call.recording?.status === 'stored' })),
    ...texts.filter((s) => !s.blocked).map((s): TimelineEvent => ({ type: 'sms', at: s.sentAt, smsId: s._id, message: Array.isArray(s.message) ? s.message.join('') : s.message })),
    ...forms.map((f): TimelineEvent => ({ type: 'form', at: f.submittedAt, formId: f._id, pageUrl: f.pageUrl, source: f.source, fields: f.fields, lead: f.lead, spam: f.spam })),
    ...sales.map((o): TimelineEvent => ({ type: 'sale', at: o.convertedAt ?? o.createdAt, orderId: o.externalId, status: o.status, totalCost: o.totalCost, currency: o.currency, callId: o.callId })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  const touched = [...calls, ...forms].map((contact) => contact.firstTouch).filter((t): t is Touch => Boolean(t));
  const firstTouch = touched.sort((a, b) => a.at.getTime() - b.at.getTime())[0] ?? null;
  const shown = (phone: string) => maskCaller(nationalOf(phone, countryOf(domain)), domain.callerPrivacy);
  // Each match as the people it names live on now, leaving out those merged into this one since.
  const possibleMatches = [];
  for (const match of person?.possibleMatches ?? []) {
    const people = [...new Set(await Promise.all(match.people.map((p) => currentPerson(c, p))))].filter((p) => p !== personId);
    if (people.length) possibleMatches.push({ at: match.at, contact: match.contact, people });
  }
  return { personId, phones: phones.map(shown), emails, firstTouch, events, erasedAt: person?.erasedAt ?? null, possibleMatches, ...withPhoneDisplay(domain.callerPrivacy === 'none' ? phones : [], countryOf(domain)) };
}
