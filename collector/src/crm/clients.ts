// One client per connection and credentials, kept while the process runs, so that its limiter holds
// the connection under the CRM's rate limit across jobs; a check of new credentials gets its own.
import type { CrmClient } from './crm-client.ts';
import type { CrmClientOf } from './connections.ts';
import { HubSpotCrm } from './hubspot.ts';

const KEPT = 500;

export function crmClients(hubspotBase: string): CrmClientOf {
  const kept = new Map<string, CrmClient>();
  return (_crm, secret, key) => {
    const known = key.endsWith('|check') ? undefined : kept.get(key);
    if (known) return known;
    const client = new HubSpotCrm(secret.accessToken ?? '', hubspotBase);
    if (!key.endsWith('|check')) {
      kept.set(key, client);
      if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
    }
    return client;
  };
}
