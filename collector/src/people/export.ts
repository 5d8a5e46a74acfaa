// A person's data on request (their right of access): everything stored of them in one JSON file,
// written as it is read, so memory holds one batch whatever their history. The calls, forms and
// texts in the data API's own records (docs/api-data.md), their calls' transcripts; their visits and the pages of those
// visits; their carts' and orders' lines. Numbers as the domain's caller privacy shows them, as
// everywhere in the back end. Reads what `erasePerson` erases, so an export before an erase says
// what it will take. Knows nothing of HTTP.
import { chunksOf, mapped } from '../db/batched.ts';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import { maskCaller } from '../domains/caller-privacy.ts';
import { countryOf, nationalOf } from '../domains/phone-numbers.ts';
import { callRecord, formRecord, hasStoredRecording, smsRecord } from '../data/records.ts';
import { sourceLabel } from '../tracking/attribution.ts';
import { parseKeys } from './people.ts';
import { PersonContacts } from './person-contacts.ts';
import type { ContactKind } from './contact-entries.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { CommerceCollections } from '../commerce/documents.ts';
import type { PeopleCollections } from './documents.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { TranscriptCollections } from '../transcripts/documents.ts';

/** Documents read by one query: the contacts' ids in an `$in`, and the visits whose pages are read together. */
const BATCH = 500;

/** More of the person kept by a higher family (texting/), as `"name":…,` fragments, given their numbers. */
export type MoreOfPerson = (personId: number, phones: string[]) => AsyncIterable<string>;

export async function* personExport(c: PeopleCollections & DomainCollections & TrackingCollections & TelephonyCollections & ReportCollections & FormCollections & CommerceCollections & TranscriptCollections, domain: DomainDoc, personId: number, now = new Date(), more: MoreOfPerson[] = []): AsyncGenerator<string> {
  const entries = new PersonContacts(c);
  const [keys, contacts] = await Promise.all([entries.keys(personId, 0), entries.contacts(personId)]);
  const { phones, emails, visitors } = parseKeys(keys);
  const idsOf = (kind: ContactKind) => contacts.filter((x) => x.kind === kind).map((x) => x.id).reverse(); // oldest first
  const shown = (phone: string) => maskCaller(nationalOf(phone, countryOf(domain)), domain.callerPrivacy);
  const domainId = domain._id;

  yield `{"person_id":${personId},"domain":${JSON.stringify(domain.name)},"exported_at":"${now.toISOString()}",`;
  yield `"phones":${JSON.stringify(phones.map(shown))},"emails":${JSON.stringify(emails)},"visitor_ids":${JSON.stringify(visitors)},`;
  // Ours (crm/): the person's ids in the domain's CRMs, where their calls and forms were sent.
  const person = await c.people.findOne({ _id: personId }, { projection: { crmRefs: 1 } });
  yield `"crm_refs":${JSON.stringify(person?.crmRefs ?? {})},`;
  for (const part of more) yield* part(personId, phones);

  const callIds = idsOf('call');
  yield* array('calls', byIds(callIds, (ids) => c.calls.find({ _id: { $in: ids }, domainId }, { sort: { startedAt: 1 } }), (call) => {
    // The data API's record, with whether a recording is kept in place of its link (which needs a data key).
    // Its transcript's text is with its turns, in `transcripts`.
    const { recording: _link, transcript: _text, ...record } = callRecord(call, domain, '');
    return { ...record, recording_stored: hasStoredRecording(call) };
  }));
  yield ',';
  yield* array('transcripts', byIds(callIds, (ids) => c.transcripts.find({ _id: { $in: ids }, domainId }, { sort: { startedAt: 1 } }), (t) => ({ call_id: t._id, language: t.language, made_at: t.madeAt.toISOString(), text: t.text, turns: t.turns, key_phrases: [...new Set(t.spotted.map((s) => s.label))] })));
  yield ',';
  yield* array('forms', byIds(idsOf('form'), (ids) => c.forms.find({ _id: { $in: ids }, domainId }, { sort: { submittedAt: 1 } }), (form) => ({ ...formRecord(form, domain), phone: form.phone && shown(form.phone), email: form.email })));
  yield ',';
  yield* array('texts', mapped(phones.length ? c.sms.find({ domainId, caller: { $in: phones } }, { sort: { sentAt: 1 }, batchSize: BATCH }) : [], (sms) => smsRecord(sms, domain)));
  yield ',';

  // Their visits (by their visitor ids), then what each visit did: its pages, carts and orders.
  const visitIds: number[] = [];
  const visits = visitors.length ? c.visits.find({ domainId, uniqueVisitorId: { $in: visitors } }, { sort: { createdAt: 1 }, batchSize: BATCH }) : [];
  yield* array('visits', mapped(visits, (v) => {
    visitIds.push(v._id);
    return { visit_id: v._id, started_at: v.createdAt.toISOString(), last_seen_at: v.lastSeenAt.toISOString(), landing_url: v.landingUrl, referrer: v.referrer, source: sourceLabel(v.attribution), keyword: v.attribution.keyword, ip: v.ip, user_agent: v.userAgent };
  }));
  yield ',';
  yield* array('pages', byIds(visitIds, (ids) => c.views.find({ visitId: { $in: ids } }, { sort: { createdAt: 1 } }), (view) => ({ visit_id: view.visitId, at: view.createdAt.toISOString(), url: view.url, title: view.pageTitle, ip: view.ip, user_agent: view.userAgent })));
  yield ',';
  yield* array('carts', byIds(visitIds, (ids) => c.carts.find({ visitId: { $in: ids }, domainId }, { sort: { createdAt: 1 } }), (cart) => ({ cart_id: cart.externalId, visit_id: cart.visitId, created_at: cart.createdAt.toISOString(), currency: cart.currency, total_cost: cart.totalCost, products: cart.products })));
  yield ',';
  // Orders of their visits, and of their calls (an order taken on the phone has no visit).
  const orders = byIds([...visitIds.map((id) => ({ visitId: id })), ...callIds.map((id) => ({ callId: id }))], (refs) => c.orders.find({ $or: refs, domainId }, { sort: { createdAt: 1 } }));
  const seen = new Set<number>();
  yield* array('orders', mapped(orders, (order) => {
    if (seen.has(order._id)) return undefined; // of both a visit and a call of theirs
    seen.add(order._id);
    return { order_id: order.externalId, visit_id: order.visitId, call_id: order.callId, created_at: order.createdAt.toISOString(), status: order.status, currency: order.currency, total_cost: order.totalCost, products: order.products };
  }));
  yield '}\n';
}

/** `"name":[…]`, one element at a time; an element mapped to undefined is left out. */
async function* array<T>(name: string, items: AsyncIterable<T | undefined>): AsyncGenerator<string> {
  yield `${JSON.stringify(name)}:[`;
  let first = true;
  for await (const item of items) {
    if (item === undefined) continue;
    yield `${first ? '' : ','}${JSON.stringify(item)}`;
    first = false;
  }
  yield ']';
}

/** The documents of a list of ids (or filters), read BATCH ids at a time. */
async function* byIds<K, D, T = D>(ids: K[], find: (ids: K[]) => AsyncIterable<D>, map: (d: D) => T = (d) => d as unknown as T): AsyncGenerator<T> {
  for (const some of chunksOf(ids, BATCH)) for await (const d of find(some)) yield map(d);
}
