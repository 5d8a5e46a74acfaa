// Joining contacts into people (documents.ts). A contact (a call, a form submission) brings the keys
// it is known by; none known yet makes a new person, one person's keys take the contact, and keys of
// several people join them: the oldest lives on, the others point to it (`mergedInto`), and their
// contacts move to it. Concurrent joins of one key meet on its `_id`: the second insert fails and
// that join reads again. Knows nothing of HTTP.
import type { Collections } from '../db/collections.ts';
import type { IdAllocator } from '../db/ids.ts';
import { isDuplicateKey } from '../db/writes.ts';
import type { CallWrites } from '../telephony/call-writes.ts';

export interface ContactKeys {
  phone?: string | null;
  email?: string | null;
  visitor?: string | null;
}

const keyId = (domainId: string, kind: string, value: string) => `${domainId}|${kind}:${value}`;
const KEY = /^[^|]+\|(phone|email|visitor):(.*)$/;

/** What a person is known by: their numbers (canonical), e-mail addresses and visitor ids. */
export async function keysOfPerson(c: Collections, personId: number): Promise<{ phones: string[]; emails: string[]; visitors: string[] }> {
  const keys = { phones: [] as string[], emails: [] as string[], visitors: [] as string[] };
  for (const { _id } of await c.personKeys.find({ personId }).limit(100).toArray()) {
    const [, kind, value] = KEY.exec(_id) ?? [];
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

export class People {
  constructor(
    private readonly c: Collections,
    private readonly ids: IdAllocator,
    private readonly calls: CallWrites,
  ) {}

  /** The person of a contact with these keys (made, or joined); null for a contact without any. */
  async join(domainId: string, keys: ContactKeys, now = new Date()): Promise<number | null> {
    const ids = personKeys(domainId, keys);
    if (ids.length === 0) return null;
    for (;;) {
      const known = await this.c.personKeys.find({ _id: { $in: ids } }).toArray();
      const people = [...new Set(await Promise.all(known.map((k) => this.current(k.personId))))].sort((a, b) => a - b);
      const personId = people[0] ?? (await this.make(domainId, now));
      if (people.length > 1) await this.merge(personId, people.slice(1));
      const missing = ids.filter((id) => !known.some((k) => k._id === id));
      try {
        if (missing.length) await this.c.personKeys.insertMany(missing.map((_id) => ({ _id, personId })), { ordered: true });
        return personId;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err; // another contact took one of the keys meanwhile: read again
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
  async current(personId: number): Promise<number> {
    let id = personId;
    for (let hops = 0; hops < 20; hops++) {
      const person = await this.c.people.findOne({ _id: id }, { projection: { mergedInto: 1 } });
      if (person?.mergedInto === undefined) return id;
      id = person.mergedInto;
    }
    return id;
  }

  private async make(domainId: string, now: Date): Promise<number> {
    const _id = await this.ids.next('person');
    await this.c.people.insertOne({ _id, domainId, createdAt: now });
    return _id;
  }

  /** The others live on as `into`: their keys and contacts move to it. */
  private async merge(into: number, others: number[]): Promise<void> {
    await this.c.people.updateMany({ _id: { $in: others } }, { $set: { mergedInto: into } });
    await this.c.personKeys.updateMany({ personId: { $in: others } }, { $set: { personId: into } });
    await this.c.forms.updateMany({ personId: { $in: others } }, { $set: { personId: into } });
    // Calls through their writes, so that their data API records say so: a compare-and-set, read
    // again when another write of the call came between.
    for (const { _id } of await this.c.calls.find({ personId: { $in: others } }, { projection: { _id: 1 } }).toArray()) {
      for (;;) {
        const call = await this.c.calls.findOne({ _id, personId: { $in: others } });
        if (!call || (await this.calls.update(call, { personId: into }))) break;
      }
    }
  }
}
