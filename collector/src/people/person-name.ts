// A person's name (issue 81): the inbox and the CRM call someone by it. Their forms give it; a member
// may set it, and what a member set stays until a member changes it.
import type { PeopleCollections } from './documents.ts';

/** Names are cut to this, as forms' are (forms/names.ts). */
export const MAX_NAME_LENGTH = 80;

/** What a form says the person is called: kept unless a member named them. */
export async function nameGiven(c: PeopleCollections, personId: number, name: string): Promise<void> {
  await c.people.updateOne({ _id: personId, erasedAt: { $exists: false }, $or: [{ nameBy: { $exists: false } }, { nameBy: 'form' }] }, { $set: { name: name.slice(0, MAX_NAME_LENGTH), nameBy: 'form' } });
}

/** A member names the person (null: the name forgotten, until a form gives one again). */
export async function nameSet(c: PeopleCollections, personId: number, name: string | null, member: string): Promise<void> {
  await c.people.updateOne({ _id: personId }, name === null ? { $unset: { name: '', nameBy: '' } } : { $set: { name: name.slice(0, MAX_NAME_LENGTH), nameBy: member } });
}

/** The names of these people, by id (those without one left out). */
export async function namesOf(c: PeopleCollections, personIds: number[]): Promise<Map<number, string>> {
  if (!personIds.length) return new Map();
  const people = await c.people.find({ _id: { $in: [...new Set(personIds)] }, name: { $exists: true } }, { projection: { name: 1 } }).toArray();
  return new Map(people.map((p) => [p._id, p.name!]));
}
