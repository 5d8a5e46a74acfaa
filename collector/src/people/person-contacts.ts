// A person's keys and contacts by `_id` (ours), so that their page, their erase and the count of
// people who became leads read one range of `_id`, which every engine does fast (through a
// secondary index the embedded SecantusDB reads the whole index: data/caller-calls.ts). Under the
// person's zero-padded id: `<person>|k|<key>` for each key they are known by, and
// `<person>|c|<start ms>|<call|form>|<id>` for each call and form submission, with whether it counts
// as a lead. Kept at every write of a contact, at its revision; a contact that moved (to another
// person, another start) leaves a tombstone (no `lead`) where it was, so that a late write cannot
// bring it back there. Moved whole by a merge. Knows nothing of HTTP.
import { putAtRevision } from '../db/writes.ts';
import { keysUnder, padded } from '../db/key-ranges.ts';
import { domainKeys } from '../data/call-days.ts';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import type { FormDoc, FormCollections } from '../forms/documents.ts';
import { countedApart } from '../reports/call-sources.ts';
import { LeadPeople } from './lead-people.ts';
import { contactOfEntry, type ContactKind } from './contact-entries.ts';
import type { PeopleCollections } from './documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';

/** What an entry says of a contact. */
export interface Contact {
  kind: ContactKind;
  id: number;
  personId: number | null;
  at: Date;
  rev: number;
  /** Counts as a lead: a call whose outcome is known, not counted apart (blocked, spam), that is a
   * lead, as the overview counts it (reports/call-sources.ts); a form that is a lead. */
  lead: boolean;
}

const personPrefix = (personId: number) => `${padded(personId, 12)}|`;
/** The `_id` of a contact's entry, and of a key's (what a bulk load writes: test/bench/callers.ts). */
export const contactEntry = (c: Contact) => `${personPrefix(c.personId!)}c|${padded(c.at.getTime(), 13)}|${c.kind}|${padded(c.id, 15)}`;
export const keyEntry = (personId: number, key: string) => `${personPrefix(personId)}k|${key}`;

export const callContact = (call: Pick<CallDoc, '_id' | 'personId' | 'startedAt' | 'rev' | 'status' | 'lead' | 'verdict'>): Contact => ({
  kind: 'call',
  id: call._id,
  personId: call.personId ?? null,
  at: call.startedAt,
  rev: call.rev,
  lead: call.status !== null && !countedApart(call) && call.lead === true,
});

export const formContact = (form: Pick<FormDoc, '_id' | 'personId' | 'submittedAt' | 'rev' | 'lead'>): Contact => ({ kind: 'form', id: form._id, personId: form.personId, at: form.submittedAt, rev: form.rev ?? 0, lead: form.lead });

export class PersonContacts {
  readonly leadPeople: LeadPeople;

  constructor(private readonly c: PeopleCollections & DomainCollections & TelephonyCollections & ReportCollections & FormCollections) {
    this.leadPeople = new LeadPeople(c, this);
  }

  /** A contact was stored or changed; the people it was and is one of count their first lead again. */
  async record(before: Contact | null, after: Contact): Promise<void> {
    const was = before?.personId != null ? contactEntry(before) : null;
    const now = after.personId !== null ? contactEntry(after) : null;
    if (was === now && before?.lead === after.lead) return;
    await Promise.all([was && was !== now && putAtRevision(this.c.personEntries, was, after.rev, {}, ['lead']), now && putAtRevision(this.c.personEntries, now, after.rev, { lead: after.lead })]);
    for (const personId of new Set([before?.personId, after.personId])) if (personId != null) await this.leadPeople.refresh(personId);
  }

  /** Notes keys a person is known by (documents.ts PersonKeyDoc `_id`s). */
  async addKeys(personId: number, keys: string[]): Promise<void> {
    if (keys.length) await this.c.personEntries.bulkWrite(keys.map((key) => ({ updateOne: { filter: { _id: keyEntry(personId, key) }, update: { $setOnInsert: { rev: 0 } }, upsert: true } })), { ordered: false });
  }

  /** The keys a person is known by, at most `limit`. */
  async keys(personId: number, limit = 100): Promise<string[]> {
    const prefix = `${personPrefix(personId)}k|`;
    return (await this.c.personEntries.find({ _id: keysUnder(prefix) }, { projection: { _id: 1 }, limit }).toArray()).map((e) => e._id.slice(prefix.length));
  }

  /** A person's contacts, the latest `limit` first, or every one. */
  async contacts(personId: number, limit = 0): Promise<{ kind: ContactKind; id: number; lead: boolean }[]> {
    const entries = await this.c.personEntries.find({ _id: keysUnder(`${personPrefix(personId)}c|`), lead: { $exists: true } }, { sort: { _id: -1 }, limit }).toArray();
    return entries.map((e) => ({ ...contactOfEntry(e._id), lead: e.lead! }));
  }

  /** The `_id` of a person's earliest contact that counts as a lead; null when none does. */
  async firstLead(personId: number): Promise<string | null> {
    return (await this.c.personEntries.findOne({ _id: keysUnder(`${personPrefix(personId)}c|`), lead: true }, { sort: { _id: 1 }, projection: { _id: 1 } }))?._id ?? null;
  }

  /** Moves every entry of `from` to `into` (a merge), then both count their first lead again. */
  async move(from: number, into: number): Promise<void> {
    const prefix = personPrefix(from);
    const entries = await this.c.personEntries.find({ _id: keysUnder(prefix) }).toArray();
    for (const entry of entries) {
      const { _id, rev, ...fields } = entry;
      if (!('lead' in fields) && _id.slice(prefix.length).startsWith('c|')) continue; // a tombstone stays behind
      await putAtRevision(this.c.personEntries, `${personPrefix(into)}${_id.slice(prefix.length)}`, rev, fields);
    }
    await this.c.personEntries.deleteMany({ _id: keysUnder(prefix) });
    await this.leadPeople.refresh(from);
    await this.leadPeople.refresh(into);
  }

  /** Puts the entries of a domain's people stored before entries were kept: their keys, calls and
   * form submissions, each person's first lead counted. */
  async putPast(domainId: string): Promise<void> {
    for await (const key of this.c.personKeys.find({ _id: domainKeys(domainId) })) await this.addKeys(key.personId, [key._id]);
    const linked = { domainId, personId: { $gte: 0 } };
    for await (const call of this.c.calls.find(linked, { projection: { personId: 1, startedAt: 1, rev: 1, status: 1, lead: 1, verdict: 1 } })) await this.record(null, callContact(call));
    for await (const form of this.c.forms.find(linked, { projection: { personId: 1, submittedAt: 1, rev: 1, lead: 1 } })) await this.record(null, formContact(form));
  }

  /** Deletes a person's entries (an erase): their keys are personal data. */
  async erase(personId: number): Promise<void> {
    await this.c.personEntries.deleteMany({ _id: keysUnder(personPrefix(personId)) });
  }
}
