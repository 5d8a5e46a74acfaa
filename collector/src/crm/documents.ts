// The CRM family (issue 67): a domain's connections to its team's CRM and what was delivered there,
// item by item (house/all-collections.ts gathers every family's). The CRM's id of a person is kept
// on the person (`crmRefs`), and each item's records on the call or form (`crmRecords`).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';
import type { Crm, CrmAccount } from './crm-client.ts';

/** What a connection sends: calls, forms, only leads, only callers' first calls. */
export interface CrmSendChoice {
  calls: boolean;
  forms: boolean;
  onlyLeads: boolean;
  onlyFirstCallers: boolean;
}

/** `_id` = `<domainId>|<crm>`. */
export interface CrmConnectionDoc {
  _id: string;
  domainId: string;
  accountId: string;
  crm: Crm;
  /** The CRM's account, in words and for links into it. */
  account: CrmAccount;
  send: CrmSendChoice;
  /** The CRM's owner given what nobody answered, or whose member has no CRM user; null: none. */
  defaultOwner: string | null;
  /** The credentials, JSON sealed with SECRETS_KEY (carriers/secrets.ts): never shown again. */
  secret: string;
  /** What the credentials are, in words (`private app token …a1b2`). */
  credentials: string;
  connectedAt: Date;
  by: string;
  /** The CRM refused the credentials at a delivery: deliveries wait meanwhile. */
  broken: { at: Date; error: string } | null;
}

/** An item's delivery to a CRM: `_id` = `<crm>|<domainId>|call:<id>` (or `form:<id>`). */
export interface CrmDeliveryDoc {
  _id: string;
  domainId: string;
  accountId: string;
  crm: Crm;
  kind: 'call' | 'form';
  itemId: number;
  /** The CRM's records of it: its person and its activity. */
  records: { object: string; id: string; link: string | null }[];
  /** `queued` until sent (or failed); `skipped`: never to be sent (`error` says why). */
  state: 'queued' | 'sent' | 'updated' | 'failed' | 'skipped';
  error: string | null;
  at: Date;
}

export const crmIndexes: IndexPlan = {
  // A domain's connections, read as each of its calls and forms changes.
  crmConnections: [[{ domainId: 1 }]],
  // The CRM card's last deliveries of a domain, newest first; a person's records, by their contact's id (an erase).
  crmDeliveries: [[{ domainId: 1, crm: 1, at: -1 }], [{ domainId: 1, crm: 1, 'records.id': 1 }]],
};

/** A person's ids in the CRMs, kept on the person (people/crm-refs.ts keeps them, above this family). */
export interface CrmPersonRefs {
  /** The person's id in the CRM, whether they were erased; null when there is no such person. */
  of(personId: number, crm: Crm): Promise<{ erased: boolean; ref: string | null } | null>;
  keep(personId: number, crm: Crm, ref: string): Promise<void>;
}

export interface CrmCollections {
  crmConnections: Collection<CrmConnectionDoc>;
  crmDeliveries: Collection<CrmDeliveryDoc>;
}

export function crmCollections(db: Db): CrmCollections {
  return collectionsNamed<CrmCollections>(db, { crmConnections: 'crm_connections', crmDeliveries: 'crm_deliveries' });
}
