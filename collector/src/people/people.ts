// Joining contacts into people (documents.ts). A contact (a call, a form submission) brings the keys
// it is known by; none known yet makes a new person, one person's keys take the contact, and keys of
// several people join them: the oldest lives on, the others point to it (`mergedInto`), and their
// contacts move to it. Concurrent joins of one key meet on its `_id`: the second insert fails and
// that join reads again. A person's keys and contacts are also kept under their id
// (person-contacts.ts), which is what their page reads. Knows nothing of HTTP.
//
// Only a contact sure of its keys joins people. A form, which anyone can fill with anyone's e-mail
// address and phone number, links to a person by its keys but never joins two: when they name
// several people, it is kept as a person of its own, noted on each of theirs (possibleMatches), for
// a person to merge by hand. A call joins its number and its visitor only when the visit is certain
// (telephony/service.ts): a number shared between visitors proves nothing. Even then a visit's
// person takes at most one caller number it did not give itself (`callerTaken`): strangers ringing
// a number the visitor held (a page headed with several numbers, a burst of calls) are each a
// person of their own, noted as a possible match, as such forms are.
import { nameGiven } from './person-name.ts';
import type { IdAllocator } from '../db/ids.ts';
import { isDuplicateKey } from '../db/writes.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { PossibleMatch, PeopleCollections } from './documents.ts';
import { PersonContacts } from './person-contacts.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';

export interface ContactKeys {
  phone?: string | null;
  email?: string | null;
  visitor?: string | null;
}

export interface JoinOptions {
  /** False: keys of several people do not join them (a form); the contact is kept apart, noted on each. */
  mayJoinPeople?: boolean;
  /** The contact, for that note. */
  contact?: PossibleMatch['contact'];
  /** A call's: its visitor's person takes at most one caller number it did not give itself. */
  oneCallerPerVisitor?: boolean;
}

const keyId = (domainId: string, kind: string, value: string) => `${domainId}|${kind}:${value}`;
const KEY = /^[^|]+\|(phone|email|visitor):(.*)$/;

export interface KeysOfPerson {
  phones: string[];
  emails: string[];
  visitors: string[];
}

/** What a person is known by: their numbers (canonical), e-mail addresses and visitor ids, the first 100. */
export async function keysOfPerson(c: PeopleCollections & DomainCollections & TelephonyCollections & ReportCollections & FormCollections, personId: number): Promise<KeysOfPerson> {
  return parseKeys(await new PersonContacts(c).keys(personId));
}

/** Keys (PersonKeyDoc `_id`s) by kind. */
export function parseKeys(ids: string[]): KeysOfPerson {
  const keys: KeysOfPerson = { phones: [], emails: [], visitors: [] };
  for (const key of ids) {
    const [, kind, value] = KEY.exec(key) ?? [];
    if (value !== undefined) keys[kind === 'phone' ? 'phones' : kind === 'email' ? 'emails' : 'visitors'].push(value);
  }
  return keys;
}

/** The keys of a contact: its phone number (canonical), e-mail address (lower case) and visitor id. */
export function personKeys(domainId: string, keys: ContactKeys): string[] {
  return [
    ...(keys.phone ? [keyId(domainId, 'phone', keys.phone)] : []),
    ...(keys.email ? [keyId(domainId, 'email', keys.email.toLowerCase())] : []),
    ...(keys.visitor ? [keyId(domainId, 'visitor', keys.visitor)] : []),
  ];
}

/** The person as it lives on after any merges. */
export async function currentPerson(c: PeopleCollections, personId: number): Promise<number> {
  let id = personId;
  for (let hops = 0; hops < 20; hops++) {
    const person = await c.people.findOne({ _id: id }, { projection: { mergedInto: 1 } });
    if (person?.mergedInto === undefined) return id;
    id = person.mergedInto;
  }
  return id;
}

export class People {
  private readonly contacts: PersonContacts;

  constructor(
    private readonly c: PeopleCollections & DomainCollections & TelephonyCollections & ReportCollections & FormCollections,
    private readonly ids: IdAllocator,
    private readonly calls: CallWrites,
  ) {
    this.contacts = new PersonContacts(c);
  }

  /** What a form calls the person (person-name.ts): kept unless a member named them. */
  named(personId: number, name: string): Promise<void> {
    return nameGiven(this.c, personId, name);
  }

  /** The person of a contact with these keys (made, or joined); null for a contact without any. */
  async join(domainId: string, keys: ContactKeys, now = new Date(), { mayJoinPeople = true, contact = { kind: 'unknown' }, oneCallerPerVisitor = false }: JoinOptions = {}): Promise<number | null> {
    const ids = personKeys(domainId, keys);
    if (ids.length === 0) return null;
    let retried = false;
    for (;;) {
      const known = await this.c.personKeys.find({ _id: { $in: ids } }).toArray();
      if (oneCallerPerVisitor && keys.phone && keys.visitor) {
        const stranger = await this.strangerOnVisit(domainId, keys.phone, known);
        if (stranger !== null) return this.keptApartFrom(domainId, keys.phone, stranger, contact, now);
      }
      const people = [...new Set(await Promise.all(known.map((k) => this.current(k.personId))))].sort((a, b) => a - b);
      if (people.length > 1 && !mayJoinPeople) return this.keptApart(domainId, people, contact, now);
      // A person a call makes from a new visitor has taken its caller's number already.
      const personId = people[0] ?? (await this.make(domainId, now, oneCallerPerVisitor && keys.phone && keys.visitor ? { callerTaken: keys.phone } : {}));
      if (people.length > 1) await this.merge(personId, people.slice(1));
      const missing = ids.filter((id) => !known.some((k) => k._id === id));
      try {
        if (missing.length) await this.c.personKeys.insertMany(missing.map((_id) => ({ _id, personId })), { ordered: true });
        // After a retry, every key: a failed attempt may have inserted some before the one taken.
        await this.contacts.addKeys(personId, retried ? ids : missing);
        return personId;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err; // another contact took one of the keys meanwhile: read again
        retried = true;
      }
    }
  }

  /** The person a key leads to now (a phone number, an e-mail address, a visitor id); null when none. */
  async byKey(domainId: string, keys: ContactKeys): Promise<number | null> {
    const [id] = personKeys(domainId, keys);
    const key = id ? await this.c.personKeys.findOne({ _id: id }) : null;
    return key ? this.current(key.personId) : null;
  }

  /** The person as it lives on after any merges. */
  current(personId: number): Promise<number> {
    return currentPerson(this.c, personId);
  }

  /**
   * Merges two people of the domain by hand (a person in the back end decided they are one): the
   * older lives on. Answers it; null when either is not a living person of the domain.
   */
  async mergeByHand(domainId: string, a: number, b: number): Promise<number | null> {
    const [one, other] = await Promise.all([this.current(a), this.current(b)]);
    if (one === other) return one;
    const found = await this.c.people.find({ _id: { $in: [one, other] }, domainId, erasedAt: { $exists: false } }, { projection: { _id: 1 } }).toArray();
    if (found.length !== 2) return null;
    const [into, from] = one < other ? [one, other] : [other, one];
    // Its notes of possible matches stay: read as the people live on now, they no longer name each other.
    await this.merge(into, [from]);
    return into;
  }

  /** The visitor's person, when the caller is a second number it did not give itself (it took one
   * already: an atomic claim, so that callers ringing at once cannot both be the one); else null. */
  private async strangerOnVisit(domainId: string, phone: string, known: { _id: string; personId: number }[]): Promise<number | null> {
    const visitorKey = known.find((k) => KEY.exec(k._id)?.[1] === 'visitor');
    if (!visitorKey) return null;
    const person = await this.current(visitorKey.personId);
    const phoneKey = known.find((k) => k._id === keyId(domainId, 'phone', phone));
    if (phoneKey && (await this.current(phoneKey.personId)) === person) return null;
    const claim = await this.c.people.updateOne({ _id: person, $or: [{ callerTaken: { $exists: false } }, { callerTaken: phone }] }, { $set: { callerTaken: phone } });
    return claim.matchedCount ? null : person;
  }

  /** A caller kept apart from the visitor's person: the person of their number alone, each noted as
   * a possible match of the other. */
  private async keptApartFrom(domainId: string, phone: string, visitorsPerson: number, contact: PossibleMatch['contact'], now: Date): Promise<number> {
    const own = (await this.join(domainId, { phone }, now))!;
    await this.c.people.updateOne({ _id: own }, { $push: { possibleMatches: { $each: [{ at: now, contact, people: [visitorsPerson] }], $slice: -50 } } });
    await this.c.people.updateOne({ _id: visitorsPerson }, { $push: { possibleMatches: { $each: [{ at: now, contact, people: [own] }], $slice: -50 } } });
    return own;
  }

  /** A contact naming several people, kept as a person of its own (without their keys), noted on
   * each of them and on itself. */
  private async keptApart(domainId: string, people: number[], contact: PossibleMatch['contact'], now: Date): Promise<number> {
    const own = await this.make(domainId, now);
    await this.c.people.updateOne({ _id: own }, { $push: { possibleMatches: { at: now, contact, people } } });
    for (const person of people) {
      await this.c.people.updateOne({ _id: person }, { $push: { possibleMatches: { $each: [{ at: now, contact, people: [own, ...people.filter((p) => p !== person)] }], $slice: -50 } } });
    }
    return own;
  }

  private async make(domainId: string, now: Date, extra: { callerTaken?: string } = {}): Promise<number> {
    const _id = await this.ids.next('person');
    await this.c.people.insertOne({ _id, domainId, createdAt: now, ...extra });
    return _id;
  }

  /** The others live on as `into`: their keys and contacts move to it. */
  private async merge(into: number, others: number[]): Promise<void> {
    await this.c.people.updateMany({ _id: { $in: others } }, { $set: { mergedInto: into } });
    for (const other of others) {
      const [keys, contacts] = await Promise.all([this.contacts.keys(other, 0), this.contacts.contacts(other)]);
      await this.c.personKeys.updateMany({ _id: { $in: keys } }, { $set: { personId: into } });
      await this.c.forms.updateMany({ _id: { $in: contacts.filter((x) => x.kind === 'form').map((x) => x.id) } }, { $set: { personId: into } });
      // Calls through their writes, so that their data API records say so: a compare-and-set, read
      // again when another write of the call came between.
      for (const { id } of contacts.filter((x) => x.kind === 'call')) {
        for (;;) {
          const call = await this.c.calls.findOne({ _id: id, personId: other });
          if (!call || (await this.calls.update(call, { personId: into }))) break;
        }
      }
      await this.contacts.move(other, into);
    }
  }
}
