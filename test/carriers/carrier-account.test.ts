// Connecting an account's Twilio account (issue 42): checked against Twilio at once (the official
// library against a loopback stand-in of its REST API), the secret sealed with SECRETS_KEY and
// never shown again nor logged; without SECRETS_KEY nothing is stored; the account's numbers listed
// with where they point and the pool each is in here.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const OWNER = { username: 'owner@shop.test', password: 'carrier owner password' };
const ANALYST = { username: 'analyst@shop.test', password: 'carrier analyst password', role: 'analyst' };
const SID = 'AC22222222222222222222222222222222';
const TOKEN = 'twilio-token-of-account-two';
const API_KEY = 'SK22222222222222222222222222222222';

let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([
    standInAccount(SID, TOKEN, {
      friendlyName: 'Shop calls',
      apiKeys: { [API_KEY]: 'api-secret-two' },
      numbers: [standInNumber('+33800000001', { voice_url: 'https://old.example/voice' }), standInNumber('+33100000009'), standInNumber('+14155550101', { voice_url: 'https://elsewhere.example/voice' })],
    }),
  ]);
});
afterAll(() => api.close());

describe('a carrier account, without SECRETS_KEY', () => {
  const s = useSeededCollector('carrier_no_key', trackingFixture({ users: [OWNER] }), { twilioApiBase: 'http://127.0.0.1:9' });

  it('says what to set, and stores nothing', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.get('/account/carrier')).body).toEqual({ connected: false, secretsKeySet: false });
    const refused = await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: SID, authToken: TOKEN });
    expect(refused).toMatchObject({ status: 409, body: { error: 'Set SECRETS_KEY (32 random bytes, base64: openssl rand -base64 32) to store carrier credentials; nothing was stored' } });
    expect((await s.t.c.accounts.findOne({}))!.carrier).toBeUndefined();
  });
});

describe('a carrier account, with SECRETS_KEY', () => {
  const s = useSeededCollector('carrier_account', trackingFixture({ users: [OWNER, ANALYST] }), { secretsKey: randomBytes(32), get twilioApiBase() { return api.base; } });

  it("refuses wrong credentials with Twilio's message and code, and keeps nothing", async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const refused = await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: SID, authToken: 'not-the-token' });
    expect(refused).toMatchObject({ status: 400, body: { error: 'Twilio refused the credentials (wrong or revoked): Authenticate (Twilio error 20003)', code: 20003, carrierError: 'credentials' } });
    expect((await s.t.c.accounts.findOne({}))!.carrier).toBeUndefined();
    expect(await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: SID, authToken: TOKEN, apiKey: API_KEY, apiSecret: 'x' })).toMatchObject({ status: 400, body: { error: 'give authToken, or apiKey and apiSecret' } });
    expect(await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: 'nope', authToken: TOKEN })).toMatchObject({ status: 400 });
  });

  it('connects by the auth token, the secret sealed at rest and never shown again', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const connected = await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: SID, authToken: TOKEN });
    expect(connected).toMatchObject({ status: 200, body: { connected: true, secretsKeySet: true, provider: 'twilio', accountSid: SID, apiKey: null, name: 'Shop calls' } });
    const stored = (await s.t.c.accounts.findOne({}))!.carrier!;
    expect(stored.secret).toMatch(/^v1:/);
    expect(JSON.stringify(stored)).not.toContain(TOKEN);
    expect(JSON.stringify((await owner.get('/account/carrier')).body)).not.toContain(TOKEN);
    // The activity log names the account, never the secret.
    const entry = (await owner.get('/account/activity?kind=carrier')).body.entries[0];
    expect(entry).toMatchObject({ action: 'carrier.connect', details: { provider: 'twilio', accountSid: SID, apiKey: null } });
    expect(JSON.stringify(entry)).not.toContain(TOKEN);
  });

  it('lists the numbers, where they point now, and the pool each is in here', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const { body } = await owner.get('/account/carrier/numbers');
    expect(body.numbers).toEqual([
      { number: '+33800000001', friendlyName: '+33800000001', voiceUrl: 'https://old.example/voice', statusCallback: null, smsUrl: null, pool: { domain: 'shop.test', type: 1 }, wiredHere: false },
      { number: '+33100000009', friendlyName: '+33100000009', voiceUrl: null, statusCallback: null, smsUrl: null, pool: null, wiredHere: false },
      { number: '+14155550101', friendlyName: '+14155550101', voiceUrl: 'https://elsewhere.example/voice', statusCallback: null, smsUrl: null, pool: null, wiredHere: false },
    ]);
    // Twilio slowing us down is said, not a 500.
    api.throttleNext(/GET .*IncomingPhoneNumbers/);
    expect(await owner.get('/account/carrier/numbers')).toMatchObject({ status: 429, body: { code: 20429, carrierError: 'rate-limited' } });
  });

  it('connects by an API key and secret instead, is for owners only, and is removed', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: SID, apiKey: API_KEY, apiSecret: 'api-secret-two' })).body).toMatchObject({ connected: true, apiKey: API_KEY });
    expect(api.requests.at(-1)).toMatchObject({ method: 'GET', path: `/2010-04-01/Accounts/${SID}.json` });
    const analyst = await signedInClient(s.collector.baseUrl, ANALYST.username, ANALYST.password);
    expect((await analyst.get('/account/carrier')).status).toBe(403);
    expect((await owner.call('DELETE', '/account/carrier')).status).toBe(204);
    expect((await owner.get('/account/carrier')).body).toEqual({ connected: false, secretsKeySet: true });
    expect((await owner.call('DELETE', '/account/carrier')).status).toBe(404);
    expect((await owner.get('/account/carrier/numbers')).status).toBe(409);
  });
});
