// One client per connection and credentials, kept while the process runs, so that its pace holds
// the connection under the CRM's rate limit across jobs (and Salesforce's session is reused); a check
// of new credentials gets its own.
import type { CrmClient } from './crm-client.ts';
import type { CrmClientOf } from './connections.ts';
import { DEFAULT_HUBSPOT_API_BASE, HubSpotCrm } from './hubspot.ts';
import { SalesforceCrm, type SalesforceSecret } from './salesforce.ts';

const KEPT = 500;

/** Where the CRMs are reached: HUBSPOT_API_BASE, SALESFORCE_LOGIN_URL (null: production's or a
 * sandbox's login host, by connection). */
export interface CrmHosts {
  hubspot: string;
  salesforceLogin: string | null;
}
export const DEFAULT_CRM_HOSTS: CrmHosts = { hubspot: DEFAULT_HUBSPOT_API_BASE, salesforceLogin: null };

export function crmClients(hosts: CrmHosts): CrmClientOf {
  const kept = new Map<string, CrmClient>();
  return (crm, secret, key) => {
    const known = key.endsWith('|check') ? undefined : kept.get(key);
    if (known) return known;
    const client = crm === 'hubspot' ? new HubSpotCrm(String(secret.accessToken ?? ''), hosts.hubspot) : new SalesforceCrm(secret as unknown as SalesforceSecret, hosts.salesforceLogin);
    if (!key.endsWith('|check')) {
      kept.set(key, client);
      if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
    }
    return client;
  };
}
