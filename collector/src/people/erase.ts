// Erasing a person on request: their contacts' personal fields go (numbers, e-mail addresses, form
// values, the visitor id and addresses of their visits and of those visits' pages, call recordings'
// audio), their keys too, so that no later contact joins them again; the contacts themselves stay,
// anonymous, and so every count stays right. Calls change through their writes (their data API
// records say so). Knows nothing of HTTP.
import type { Collections } from '../db/collections.ts';
import { deleteRecording } from '../recordings/retention.ts';
import type { RecordingStates } from '../recordings/states.ts';
import type { RecordingStore } from '../recordings/store.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import { parseKeys } from './people.ts';
import { PersonContacts } from './person-contacts.ts';

export interface Erased {
  calls: number;
  forms: number;
  texts: number;
  visits: number;
  recordings: number;
}

export async function erasePerson(c: Collections, writes: CallWrites, recordings: { store: RecordingStore; states: RecordingStates } | null, domainId: string, personId: number, by: string, now = new Date()): Promise<Erased> {
  const entries = new PersonContacts(c);
  const [keys, contacts] = await Promise.all([entries.keys(personId, 0), entries.contacts(personId)]);
  const { phones, visitors } = parseKeys(keys);
  const erased: Erased = { calls: 0, forms: 0, texts: 0, visits: 0, recordings: 0 };
  // Marked first: the person's count among the people who became leads stays (lead-people.ts).
  await c.people.updateOne({ _id: personId }, { $set: { erasedAt: now } });

  for (const { id: _id } of contacts.filter((x) => x.kind === 'call')) {
    if (recordings && (await deleteRecording(recordings.states, recordings.store, _id, by, now))) erased.recordings++;
    for (;;) {
      const call = await c.calls.findOne({ _id, domainId, personId });
      if (!call) break;
      if (await writes.update(call, { caller: null, personId: null, clientData: null })) {
        erased.calls++;
        break;
      }
    }
  }
  const formIds = contacts.filter((x) => x.kind === 'form').map((x) => x.id);
  erased.forms = (await c.forms.updateMany({ _id: { $in: formIds }, domainId, personId }, { $set: { fields: {}, phone: null, email: null, uniqueVisitorId: null, personId: null, erasedAt: now } })).modifiedCount;
  if (phones.length) {
    erased.texts = (await c.sms.updateMany({ domainId, caller: { $in: phones } }, { $set: { caller: null, message: '' } })).modifiedCount;
    await c.callers.deleteMany({ _id: { $in: phones.map((p) => `${domainId}|${p}`) } });
  }
  if (visitors.length) {
    // Their visits' pages keep the address and browser too (their views, read by visit).
    const visitIds = (await c.visits.find({ domainId, uniqueVisitorId: { $in: visitors } }, { projection: { _id: 1 } }).toArray()).map((v) => v._id);
    for (let i = 0; i < visitIds.length; i += 1000) await c.views.updateMany({ visitId: { $in: visitIds.slice(i, i + 1000) } }, { $set: { ip: '', userAgent: null } });
    erased.visits = (await c.visits.updateMany({ domainId, uniqueVisitorId: { $in: visitors } }, { $set: { uniqueVisitorId: null, ip: '', userAgent: null } })).modifiedCount;
  }
  await c.personKeys.deleteMany({ _id: { $in: keys } });
  await entries.erase(personId);
  return erased;
}
