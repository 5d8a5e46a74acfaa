// People (ours): the contacts of a domain that share a phone number, an e-mail address or a visitor
// id are one person. Each key a person is known by is a document of its own whose `_id` is the
// key: finding a caller's person is one `_id` lookup, which every engine does fast.
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';

export interface PersonDoc {
  _id: number;
  domainId: string;
  createdAt: Date;
  /** Set when a later contact joined this person to another: the one it lives on as. */
  mergedInto?: number;
  /** When the person was erased on request (erase.ts): their contacts stay, anonymous. */
  erasedAt?: Date;
  /** Ours: the person's first contact that is a lead, and the counters it added one to (lead-people.ts). */
  firstLead?: FirstLead;
  /** Contacts that named this person and others at once (a form whose e-mail is one person's and
   * phone another's), kept apart: for a person to merge by hand if they are one (people.ts). */
  possibleMatches?: PossibleMatch[];
  /** Ours: the one caller number this person took from a call on its visit that it had not given
   * itself (people.ts): a second different caller on its visits is a person of their own. */
  callerTaken?: string;
  /** Ours (crm/, issue 67): the person's id in each CRM the domain sends to (`hubspot` -> its contact). */
  crmRefs?: Record<string, string>;
  /** Ours (issue 81, person-name.ts): the person's name, as their latest form gave it, or as a member set it. */
  name?: string;
  /** Who gave the name: `form`, or the member's username (a member's name is never overwritten by a form). */
  nameBy?: string;
}

export interface PossibleMatch {
  at: Date;
  /** The contact that named them: `form` or `call`, and its id. */
  contact: { kind: 'form' | 'call'; id: number } | { kind: 'unknown' };
  /** The other people it named, and the person it was kept as. */
  people: number[];
}

export interface FirstLead {
  /** Its entry's `_id` (person-contacts.ts). */
  entry: string;
  /** Its local day, and the places of that day's `leadPeople` counters: `total`, `src.paid`, `firstTouch.src.organic`… */
  day: string;
  places: string[];
}

/** A key or a contact of a person (person-contacts.ts): `_id` = `<person id, 12 digits>|k|<key>` or
 * `<person id>|c|<start ms, 13 digits>|<call|form>|<id, 15 digits>`. A contact entry without `lead`
 * is a tombstone, where the contact was before it moved. */
export interface PersonEntryDoc {
  _id: string;
  rev: number;
  lead?: boolean;
}

/** `_id`: `<domainId>|phone:<canonical>`, `…|email:<address>` or `…|visitor:<id>`. */
export interface PersonKeyDoc {
  _id: string;
  personId: number;
}

/** None: a person is read by `_id`, their keys and contacts by a range of `_id` (person-contacts.ts). */
export const peopleIndexes: IndexPlan = {};

/** The people family's collections, as its services receive them. */
export interface PeopleCollections {
  people: Collection<PersonDoc>;
  personKeys: Collection<PersonKeyDoc>;
  personEntries: Collection<PersonEntryDoc>;
}

export function peopleCollections(db: Db): PeopleCollections {
  return collectionsNamed<PeopleCollections>(db, { people: 'people', personKeys: 'person_keys', personEntries: 'person_entries' });
}
