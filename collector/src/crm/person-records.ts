// What a person left in the domain's CRMs (issue 67): their contact (or lead) and the activities of their
// calls and forms, with links, for the owner to remove there when the person is erased here (we do
// not delete in the team's CRM on their behalf; an erased person is never sent again).
import type { CrmCollections } from './documents.ts';

export interface CrmRecordOfPerson {
  crm: string;
  object: string;
  id: string;
  link: string | null;
}

/** At most this many records a CRM are listed: the person's contact first. */
const LISTED = 200;

/** `refs`: the person's ids in the CRMs (`crmRefs` on the person). */
export async function crmRecordsOfPerson(c: CrmCollections, domainId: string, refs: Record<string, string>): Promise<CrmRecordOfPerson[]> {
  const listed: CrmRecordOfPerson[] = [];
  for (const [crm, ref] of Object.entries(refs)) {
    const deliveries = await c.crmDeliveries.find({ domainId, crm: crm as never, 'records.id': ref }, { projection: { records: 1 }, limit: LISTED }).toArray();
    const found = deliveries.flatMap((d) => d.records);
    // The person's own record first: a contact, or Salesforce's lead.
    const own = found.find((r) => r.id === ref) ?? { object: 'contact', id: ref, link: null };
    const records = new Map<string, CrmRecordOfPerson>([[`${own.object}:${ref}`, { crm, ...own }]]);
    for (const r of found) records.set(`${r.object}:${r.id}`, { crm, object: r.object, id: r.id, link: r.link });
    listed.push(...records.values());
  }
  return listed;
}
