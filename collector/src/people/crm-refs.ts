// A person's ids in the domain's CRMs (crm/, issue 67), kept on the person (`crmRefs`): their next
// call or form goes straight to the same contact, and an erased person is never sent again.
import type { Crm } from '../crm/crm-client.ts';
import type { CrmPersonRefs } from '../crm/documents.ts';
import type { PeopleCollections } from './documents.ts';

export function crmPersonRefs(c: PeopleCollections): CrmPersonRefs {
  return {
    async of(personId: number, crm: Crm) {
      const person = await c.people.findOne({ _id: personId }, { projection: { erasedAt: 1, crmRefs: 1 } });
      return person && { erased: Boolean(person.erasedAt), ref: person.crmRefs?.[crm] ?? null };
    },
    async keep(personId: number, crm: Crm, ref: string) {
      await c.people.updateOne({ _id: personId }, { $set: { [`crmRefs.${crm}`]: ref } });
    },
  };
}
