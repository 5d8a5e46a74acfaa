// The CRM card as a person uses it (issue 81), against the loopback HubSpot stand-in: what the last
// call would be sent as, shown before anything is connected; the default owner picked from HubSpot's
// owners once connected; a HubSpot that cannot be reached said in words, its reason after them.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { startHubSpot } from '../helpers/hubspot-stand-in.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const hs = await startHubSpot();
afterAll(() => hs.close());
const OWNER = { username: 'ada@acme.example', password: 'crm card owner password' };
const s = useSeededCollector('crm_card', trackingFixture({ users: [OWNER] }), {
  telephonyApiKey: TELEPHONY_KEY,
  secretsKey: randomBytes(32),
  hubspotApiBase: hs.base,
  delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false },
});
const SEND = { calls: true, forms: true, onlyLeads: false, onlyFirstCallers: false };

describe('the CRM card', () => {
  it('shows what the last call would be sent as, before anything is connected or sent', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.get('/domains/shop.test/crm/hubspot/preview')).body).toEqual({ callId: null, crm: 'hubspot', objects: null, person: null, activity: null });
    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'crm-card-1', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 95, callerPhone: '0612121288' });
    const preview = (await owner.get('/domains/shop.test/crm/hubspot/preview')).body;
    expect(preview).toMatchObject({ callId: body.callId, objects: { person: 'contact', activity: 'call' }, person: { phones: ['+33612121288', '0612121288'] }, activity: { title: `RingTrail call ${body.callId}: answered`, answered: true, durationSeconds: 95 } });
    expect(preview.activity.body).toContain('Source: unattributed');
    expect(hs.requests).toEqual([]);
  });

  it("offers HubSpot's owners for the default owner once connected", async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.get('/domains/shop.test/crm/hubspot/owners')).status).toBe(409);
    expect((await owner.call('PUT', '/domains/shop.test/crm/hubspot', { accessToken: hs.token, send: SEND })).status).toBe(200);
    expect((await owner.get('/domains/shop.test/crm/hubspot/owners')).body).toEqual({
      owners: [
        { id: '7001', name: 'Ada Lovelace', email: 'ada@acme.example' },
        { id: '7002', name: 'Sales Desk', email: 'sales@acme.example' },
      ],
    });
    expect((await owner.call('PUT', '/domains/shop.test/crm/hubspot', { send: SEND, defaultOwner: '7002' })).body).toMatchObject({ defaultOwner: '7002' });
  });

  it('says in words that HubSpot could not be reached from this server, the technical reason after', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    await hs.close();
    const tested = await owner.call('POST', '/domains/shop.test/crm/hubspot/test');
    expect(tested.status).toBe(400);
    expect(tested.body.error).toMatch(/^HubSpot could not be reached from this server: check its network \(a firewall, a proxy, its DNS\)\. The reason: .+/);
  });
});
