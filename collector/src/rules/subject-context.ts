// What a rule's conditions need beyond a call's or form's own document, read once for one or many
// of them and only when a rule asks: the pools of the numbers called, the people's first leads.
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import { countryOf } from '../domains/phone-numbers.ts';
import type { PeopleCollections, PersonDoc } from '../people/documents.ts';
import type { RuleDoc } from './documents.ts';
import type { SubjectContext } from './subject.ts';

/** When a person's first lead began: its entry is `<person>|c|<start ms>|…` (people/person-contacts.ts). */
const firstLeadStart = (person: Pick<PersonDoc, 'firstLead'>) => (person.firstLead ? Number(person.firstLead.entry.split('|')[2]) : null);

/** What the context is read from: the domains' numbers and the people. */
export type ContextCollections = DomainCollections & PeopleCollections;

/** The context of each of `items` (a number called, a person), as a lookup. */
export async function subjectContexts(c: ContextCollections, domain: DomainDoc, rules: Pick<RuleDoc, 'conditions'>[], items: { trackingNumber: string | null; personId?: number | null }[]): Promise<(trackingNumber: string | null, personId: number | null | undefined) => SubjectContext> {
  const asks = (field: string) => rules.some((rule) => rule.conditions.some((condition) => condition.field === field));
  const distinct = <T>(values: (T | null | undefined)[]) => [...new Set(values.filter((v): v is T => v !== null && v !== undefined))];
  const numbers = asks('pool') ? distinct(items.map((i) => i.trackingNumber)) : [];
  const personIds = asks('hadLead') ? distinct(items.map((i) => i.personId)) : [];
  const [pools, people] = await Promise.all([
    numbers.length ? c.trackingNumbers.find({ _id: { $in: numbers }, domainId: domain._id }, { projection: { type: 1 } }).toArray() : [],
    personIds.length ? c.people.find({ _id: { $in: personIds } }, { projection: { firstLead: 1 } }).toArray() : [],
  ]);
  const poolOf = new Map(pools.map((n) => [n._id, n.type]));
  const leadOf = new Map(people.map((p) => [p._id, firstLeadStart(p)]));
  return (trackingNumber, personId) => ({
    timeZone: domain.timeZone,
    country: countryOf(domain),
    pool: trackingNumber ? (poolOf.get(trackingNumber) ?? null) : null,
    firstLeadAt: typeof personId === 'number' ? (leadOf.get(personId) ?? null) : null,
  });
}
