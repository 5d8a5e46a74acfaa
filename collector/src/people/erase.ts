// Erasing a person on request: their contacts' personal fields go (numbers, e-mail addresses, form
// values, the visitor id and addresses of their visits and of those visits' pages, call recordings'
// audio), their keys too, so that no later contact joins them again; the contacts themselves stay,
// anonymous, and so every count stays right. The alert mails that named them go too. Calls change through their writes (their data API
// records say so). Knows nothing of HTTP.
import { normalizePhone } from '@ringtrail/shared';
import { deleteRecording } from '../recordings/retention.ts';
import type { RecordingStates } from '../recordings/states.ts';
import type { RecordingStore } from '../recordings/store.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import { chunksOf } from '../db/batched.ts';
import { parseKeys } from './people.ts';
import { PersonContacts } from './person-contacts.ts';
import type { PeopleCollections } from './documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';

export interface Erased {
  calls: number;
  forms: number;
  texts: number;
  visits: number;
  recordings: number;
}

/** The forms kept apart because they named this person (possible matches, people.ts): the person's
 * e-mail address and number go from them too, from their fields as well (issue 70). */
async function clearFromPossibleMatches(c: PeopleCollections & FormCollections, domainId: string, personId: number, emails: string[], phones: string[]): Promise<void> {
  const person = await c.people.findOne({ _id: personId }, { projection: { possibleMatches: 1 } });
  const formIds = (person?.possibleMatches ?? []).flatMap((m) => (m.contact.kind === 'form' ? [m.contact.id] : []));
  if (!formIds.length || !(emails.length || phones.length)) return;
  const theirs = (value: string) => emails.includes(value.trim().toLowerCase()) || phones.includes(normalizePhone(value) ?? '');
  // Their address written inside a text ("write to bob@example.com") goes too.
  const inText = emails.map((email) => new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'));
  const withoutAddresses = (value: string) => inText.reduce((text, address) => text.replace(address, '[erased]'), value);
  for await (const form of c.forms.find({ _id: { $in: formIds }, domainId })) {
    const fields = Object.fromEntries(Object.entries(form.fields).flatMap(([name, value]) => (theirs(value) ? [] : [[name, withoutAddresses(value)]])));
    const email = form.email && emails.includes(form.email) ? null : form.email;
    const phone = form.phone && phones.includes(form.phone) ? null : form.phone;
    await c.forms.updateOne({ _id: form._id }, { $set: { fields, email, phone } });
  }
}

export async function erasePerson(c: PeopleCollections & DomainCollections & TrackingCollections & TelephonyCollections & ReportCollections & FormCollections & WebhookCollections, writes: CallWrites, recordings: { store: RecordingStore; states: RecordingStates } | null, domainId: string, personId: number, by: string, now = new Date()): Promise<Erased> {
  const entries = new PersonContacts(c);
  const [keys, contacts] = await Promise.all([entries.keys(personId, 0), entries.contacts(personId)]);
  const { phones, emails, visitors } = parseKeys(keys);
  const erased: Erased = { calls: 0, forms: 0, texts: 0, visits: 0, recordings: 0 };
  // Marked first: the person's count among the people who became leads stays (lead-people.ts).
  await c.people.updateOne({ _id: personId }, { $set: { erasedAt: now }, $unset: { name: '', nameBy: '' } });

  // The visits their calls and forms came from, whether or not the visitor sent a visitor id.
  const contactVisits = new Set<number>();
  for (const { id: _id } of contacts.filter((x) => x.kind === 'call')) {
    if (recordings && (await deleteRecording(recordings.states, recordings.store, _id, by, now))) erased.recordings++;
    for (;;) {
      const call = await c.calls.findOne({ _id, domainId, personId });
      if (!call) break;
      if (call.visitId !== null) contactVisits.add(call.visitId);
      if (await writes.update(call, { caller: null, personId: null, clientData: null })) {
        erased.calls++;
        break;
      }
    }
  }
  const formIds = contacts.filter((x) => x.kind === 'form').map((x) => x.id);
  for await (const form of c.forms.find({ _id: { $in: formIds }, domainId, personId }, { projection: { visitId: 1 } })) if (form.visitId !== null) contactVisits.add(form.visitId);
  erased.forms = (await c.forms.updateMany({ _id: { $in: formIds }, domainId, personId }, { $set: { fields: {}, phone: null, email: null, uniqueVisitorId: null, personId: null, erasedAt: now } })).modifiedCount;
  await clearFromPossibleMatches(c, domainId, personId, emails, phones);
  if (phones.length) {
    erased.texts = (await c.sms.updateMany({ domainId, caller: { $in: phones } }, { $set: { caller: null, message: '' }, $unset: { media: '' } })).modifiedCount;
    await c.callers.deleteMany({ _id: { $in: phones.map((p) => `${domainId}|${p}`) } });
    await c.stickyAnswers.deleteMany({ _id: { $in: phones.map((p) => `${domainId}|${p}`) } }); // who last answered them (call flows)
  }
  // Their visits (by their visitor ids, and those their contacts came from) and those visits' pages
  // keep no address or browser; their visitor id goes from the visits it is on.
  const byVisitor = visitors.length ? (await c.visits.find({ domainId, uniqueVisitorId: { $in: visitors } }, { projection: { _id: 1 } }).toArray()).map((v) => v._id) : [];
  const visitIds = [...new Set([...byVisitor, ...contactVisits])];
  for (const some of chunksOf(visitIds, 1000)) {
    await c.views.updateMany({ visitId: { $in: some } }, { $set: { ip: '', userAgent: null } });
    erased.visits += (await c.visits.updateMany({ _id: { $in: some }, domainId }, { $set: { ip: '', userAgent: null } })).modifiedCount;
  }
  if (visitors.length) await c.visits.updateMany({ domainId, uniqueVisitorId: { $in: visitors } }, { $set: { uniqueVisitorId: null } });
  // The alert mails that named them: gone from the delivery log, and not sent when still waiting.
  await c.deliveryLog.deleteMany({ personIds: personId });
  await c.outbox.deleteMany({ kind: 'mail', personIds: personId });
  await c.personKeys.deleteMany({ _id: { $in: keys } });
  await entries.erase(personId);
  return erased;
}
