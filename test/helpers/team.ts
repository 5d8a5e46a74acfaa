// An account with a member of each role, two domains, and another account beside it.
import { trackingFixture } from './fixtures.ts';

export const TEAM_PASSWORD = 'team password 1';

/** Team: owner, admin (every domain), limitedAdmin (admin of a.test), analyst and agent (a.test);
 * domains a.test and b.test. Rival: rival@rival.test, owner of r.test. */
export function teamFixture() {
  const domain = trackingFixture().accounts[0]!.domains[0]!;
  const member = (name: string, role: string, domains?: string[]) => ({ username: `${name}@team.test`, password: TEAM_PASSWORD, role, ...(domains ? { domains } : {}) });
  return {
    accounts: [
      {
        name: 'Team',
        users: [member('owner', 'owner'), member('admin', 'admin'), member('limitedAdmin', 'admin', ['a.test']), member('analyst', 'analyst', ['a.test']), member('agent', 'agent', ['a.test'])],
        domains: [
          { ...domain, name: 'a.test', apiKey: 'team-a-key', dataApiKey: 'team-a-data', offlineApiKey: 'team-a-offline', publicKey: 'pk-team-a', allowedOrigins: ['http://a.test'] },
          { name: 'b.test', apiKey: 'team-b-key', sitePhones: ['0123456780'], pools: [{ type: 1, usage: 'online', numbers: ['0800000011'] }] },
        ],
      },
      { name: 'Rival', users: [{ username: 'rival@rival.test', password: TEAM_PASSWORD }], domains: [{ name: 'r.test', apiKey: 'rival-key', pools: [{ type: 1, usage: 'online', numbers: ['0800000021'] }] }] },
    ],
  };
}
