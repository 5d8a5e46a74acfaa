// The `_id` of a person's contact entry (person-contacts.ts): `<person>|c|<start ms>|<call|form>|<id>`.
// Its own module, so that what reads the entries (lead-people.ts) and what writes them need not
// import each other.

export type ContactKind = 'call' | 'form';

/** A contact entry's kind and id, from its `_id`. */
export function contactOfEntry(entryId: string): { kind: ContactKind; id: number } {
  const [, , , kind, id] = entryId.split('|');
  return { kind: kind as ContactKind, id: Number(id) };
}
