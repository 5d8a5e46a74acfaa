// A platform that does not answer when a domain connects (down, or no route out of the server): the
// connection is refused with the platform's silence in words (connections.ts then stores nothing).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ADS_ENDPOINTS, PlatformClients } from '../../collector/src/ads/platform-clients.ts';

/** A loopback port nobody listens on any more. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a platform that does not answer at connection', () => {
  it('is named with its silence, which refuses the connection', async () => {
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    const clients = new PlatformClients({ ...DEFAULT_ADS_ENDPOINTS, metaGraph: nowhere, microsoftAds: nowhere, microsoftOAuthToken: `${nowhere}/token` });
    expect(await clients.check('meta', { datasetId: '1234567890' }, { accessToken: 'EAAB-token' }, 'USD')).toMatch(/^meta did not answer: .+; nothing was stored$/);
    expect(await clients.check('microsoft', { customerId: '1', accountId: '2', conversionName: 'Leads' }, { developerToken: 'd', oauth: { clientId: 'c', refreshToken: 'r' } }, 'USD')).toMatch(/^microsoft did not answer: .+; nothing was stored$/);
  });
});
