// Numbers wired by the carrier's API (issue 42), the official `twilio` library against a loopback
// stand-in of Twilio's REST API: 3 numbers imported into a pool with their URLs set to the collector,
// then restored as they were on release; 5 bought with 1 taken between search and purchase (4 in the
// pool, 1 reported, nothing half-done); a bought one released at the carrier.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';
import { carrierBroken, numbersMiswired } from '../../collector/src/alerts/warnings.ts';

const OWNER = { username: 'owner@shop.test', password: 'carrier numbers password' };
const SID = 'AC33333333333333333333333333333333';
const TOKEN = 'twilio-token-of-account-three';
const PUBLIC_URL = 'https://calls.shop.example';
const WIRED = { voice_url: `${PUBLIC_URL}/telephony/twilio/voice`, status_callback: `${PUBLIC_URL}/telephony/twilio/status`, sms_url: `${PUBLIC_URL}/telephony/twilio/sms` };
const ON_SALE = ['+12125550101', '+12125550102', '+12125550103', '+12125550104', '+12125550105', '+12125550106', '+13125550107'];

let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([
    standInAccount(SID, TOKEN, {
      numbers: [
        standInNumber('+12125550001', { voice_url: 'https://old-tracker.example/voice', status_callback: 'https://old-tracker.example/status', sms_url: 'https://old-tracker.example/sms' }),
        standInNumber('+12125550002'),
        standInNumber('+12125550003', { voice_url: 'https://demo.twilio.com/welcome/voice/' }),
      ],
      available: { US: { Local: ON_SALE } },
    }),
  ]);
});
afterAll(() => api.close());

const stored = (s: ReturnType<typeof useSeededCollector>, e164: string) => api.accounts.get(SID)!.numbers.find((n) => n.phone_number === e164);

describe("a US domain's numbers through its Twilio account", () => {
  const s = useSeededCollector('carrier_numbers', trackingFixture({ users: [OWNER], settings: { country: 'US', timeZone: 'America/New_York', sitePhones: ['2125550100'] } }), {
    secretsKey: randomBytes(32),
    publicUrl: PUBLIC_URL,
    get twilioApiBase() {
      return api.base;
    },
  });
  const owner = () => signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);

  it('imports 3 numbers into a pool, each wired to the collector, saying where their calls went before', async () => {
    const client = await owner();
    expect((await client.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: SID, authToken: TOKEN })).status).toBe(200);
    expect((await client.call('POST', '/domains/shop.test/pools', { type: 100, usage: 'online', codeDigits: 0 })).status).toBe(201);
    const imported = await client.call('POST', '/domains/shop.test/pools/100/numbers/import', { numbers: ['+12125550001', '(212) 555-0002', '+1 212 555 0003', '+19995550000'] });
    expect(imported.body.results).toEqual([
      { number: '+12125550001', ok: true, movedFrom: 'https://old-tracker.example/voice' },
      { number: '+12125550002', ok: true, movedFrom: null },
      { number: '+12125550003', ok: true, movedFrom: 'https://demo.twilio.com/welcome/voice/' },
      { number: '+19995550000', ok: false, error: 'not a number of the carrier account' },
    ]);
    for (const e164 of ['+12125550001', '+12125550002', '+12125550003']) expect(stored(s, e164)).toMatchObject({ ...WIRED, voice_method: 'POST' });
    expect(await s.t.c.trackingNumbers.countDocuments({ domainId: 'shop.test', type: 100 })).toBe(3);
    // The account's list says each is in the pool and wired here.
    const listed = (await client.get('/account/carrier/numbers')).body.numbers;
    expect(listed.map((n: { pool: unknown; wiredHere: boolean }) => [n.pool, n.wiredHere])).toEqual([[{ domain: 'shop.test', type: 100 }, true], [{ domain: 'shop.test', type: 100 }, true], [{ domain: 'shop.test', type: 100 }, true]]);
  });

  it('restores an imported number as it was when it is released', async () => {
    const client = await owner();
    const released = await client.call('POST', '/domains/shop.test/numbers/2125550001/release');
    expect(released).toMatchObject({ status: 200, body: { released: 'restored as it was' } });
    expect(stored(s, '+12125550001')).toMatchObject({ voice_url: 'https://old-tracker.example/voice', status_callback: 'https://old-tracker.example/status', sms_url: 'https://old-tracker.example/sms' });
    expect(await s.t.c.trackingNumbers.findOne({ _id: '0012125550001' })).toBeNull();
    // A number nobody imported has nothing to give back.
    expect((await client.call('POST', '/domains/shop.test/numbers/0800000001/release')).status).toBe(404);
  });

  it('buys 5 into the pool, one taken meanwhile: 4 in the pool and wired, 1 reported, nothing half-done', async () => {
    const client = await owner();
    // What is on sale first, as a person looks before buying.
    expect((await client.get('/domains/shop.test/pools/100/numbers/available?areaCode=212')).body).toEqual({ numbers: ON_SALE.slice(0, 6) });
    expect((await client.get('/domains/shop.test/pools/100/numbers/available?areaCode=abc')).status).toBe(400);
    // By town: Twilio's InLocality.
    await client.get('/domains/shop.test/pools/100/numbers/available?locality=New%20York');
    expect(api.requests.at(-1)).toMatchObject({ method: 'GET', path: expect.stringMatching(/\/AvailablePhoneNumbers\/US\/Local\.json\?.*InLocality=New(%20|\+)York/) });
    api.takenBeforePurchase('+12125550103');
    const bought = await client.call('POST', '/domains/shop.test/pools/100/numbers/buy', { count: 5, areaCode: '212' });
    expect(bought.body.results).toEqual([
      { number: '+12125550101', ok: true },
      { number: '+12125550102', ok: true },
      { number: '+12125550103', ok: false, error: 'the number is not available at Twilio: PhoneNumber requested is not available (Twilio error 21422)' },
      { number: '+12125550104', ok: true },
      { number: '+12125550105', ok: true },
    ]);
    for (const e164 of ['+12125550101', '+12125550102', '+12125550104', '+12125550105']) {
      expect(stored(s, e164)).toMatchObject(WIRED);
      expect(await s.t.c.trackingNumbers.findOne({ _id: `00${e164.slice(1)}` })).toMatchObject({ domainId: 'shop.test', type: 100, carrier: { origin: 'bought', sid: stored(s, e164)!.sid } });
    }
    expect(stored(s, '+12125550103')).toBeUndefined();
    expect(await s.t.c.trackingNumbers.findOne({ _id: '0012125550103' })).toBeNull();
    // A retry picks other numbers: never one known here, nor the one that failed if it is gone.
    const again = await client.call('POST', '/domains/shop.test/pools/100/numbers/buy', { count: 1, areaCode: '212' });
    expect(again.body.results.map((r: { number: string }) => r.number)).not.toContain('+12125550101');
    // Twilio asks to slow down: that purchase is reported, the rest not tried (never retried blindly).
    api.throttleNext(/POST .*IncomingPhoneNumbers\.json$/);
    const throttled = await client.call('POST', '/domains/shop.test/pools/100/numbers/buy', { count: 2, areaCode: '212' });
    expect(throttled.body.results).toEqual([
      { number: expect.any(String), ok: false, error: 'Twilio asks to slow down (too many requests): Too Many Requests (Twilio error 20429)' },
      { number: expect.any(String), ok: false, error: 'not tried: Twilio asks to slow down (too many requests): Too Many Requests (Twilio error 20429)' },
    ]);
    // An area code with nothing on sale: an empty result with the reason, not an error.
    expect((await client.call('POST', '/domains/shop.test/pools/100/numbers/buy', { count: 2, areaCode: '907' })).body).toEqual({ results: [], reason: 'no local numbers in area code 907 on sale in US now' });
  });

  it('releases a bought number at the carrier', async () => {
    const client = await owner();
    // What a person confirms first: what happens, and the number's calls of the last 30 days.
    expect((await client.get('/domains/shop.test/numbers/2125550101/release')).body).toEqual({ number: '+12125550101', origin: 'bought', released: 'released at the carrier', callsLast30Days: 0 });
    expect((await client.call('POST', '/domains/shop.test/numbers/2125550101/release')).body).toMatchObject({ released: 'released at the carrier' });
    expect(stored(s, '+12125550101')).toBeUndefined();
    expect(api.requests.at(-1)).toMatchObject({ method: 'DELETE', path: expect.stringMatching(/\/IncomingPhoneNumbers\/PN\w+\.json$/) });
    expect(await s.t.c.trackingNumbers.findOne({ _id: '0012125550101' })).toBeNull();
  });
});

describe('the check of the wiring', () => {
  const s = useSeededCollector('carrier_check', trackingFixture({ users: [OWNER], settings: { country: 'US', timeZone: 'America/New_York', sitePhones: ['2125550100'] } }), {
    secretsKey: randomBytes(32),
    publicUrl: PUBLIC_URL,
    get twilioApiBase() {
      return api.base;
    },
  });

  it('flags a number whose calls no longer come here, on the pools screen, until it is fixed', async () => {
    const client = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    await client.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: SID, authToken: TOKEN });
    await client.call('POST', '/domains/shop.test/pools', { type: 100, usage: 'online', codeDigits: 0 });
    expect((await client.call('POST', '/domains/shop.test/pools/100/numbers/import', { numbers: ['+12125550002', '+12125550003'] })).body.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
    expect((await client.call('POST', '/account/carrier/check')).body).toEqual({ checked: 2, miswired: [] });

    // Someone points one elsewhere in Twilio's console.
    stored(s, '+12125550003')!.voice_url = 'https://someone-else.example/voice';
    expect((await client.call('POST', '/account/carrier/check')).body).toEqual({ checked: 2, miswired: [{ domain: 'shop.test', number: '+12125550003', voiceUrl: 'https://someone-else.example/voice' }] });
    const row = (await client.get('/domains/shop.test')).body.numbers.find((n: { number: string }) => n.number === '2125550003');
    expect(row.carrier).toMatchObject({ origin: 'imported', check: { ok: false, voiceUrl: 'https://someone-else.example/voice' } });
    // The warning mailed to the domain's people while it lasts (alerts/warnings.ts).
    expect(await numbersMiswired(s.t.c, (await s.t.c.domains.findOne({ _id: 'shop.test' }))!)).toEqual([['0012125550003', 'its voice URL points to https://someone-else.example/voice']]);

    // Fixed: wired here again, and the flag goes.
    expect((await client.call('POST', '/domains/shop.test/numbers/2125550003/fix')).body).toEqual({ number: '+12125550003', voiceUrl: `${PUBLIC_URL}/telephony/twilio/voice` });
    expect(stored(s, '+12125550003')).toMatchObject(WIRED);
    expect((await client.get('/domains/shop.test')).body.numbers.find((n: { number: string }) => n.number === '2125550003').carrier.check.ok).toBe(true);
    expect(await numbersMiswired(s.t.c, (await s.t.c.domains.findOne({ _id: 'shop.test' }))!)).toBeNull();
  });

  it('says the connection broke when the token is revoked, and warns, until it answers again', async () => {
    const client = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const account = api.accounts.get(SID)!;
    account.authToken = 'rotated-in-the-console';
    expect(await client.call('POST', '/account/carrier/check')).toMatchObject({ status: 400, body: { code: 20003, carrierError: 'credentials' } });
    expect((await client.get('/account/carrier')).body.broken).toMatchObject({ error: expect.stringContaining('Twilio refused the credentials') });
    const accountId = (await s.t.c.accounts.findOne({}))!._id;
    expect(await carrierBroken(s.t.c, accountId)).toEqual([['Since', expect.any(String)], ['The carrier says', 'Twilio refused the credentials (wrong or revoked): Authenticate (Twilio error 20003)']]);
    account.authToken = TOKEN;
    expect((await client.call('POST', '/account/carrier/check')).status).toBe(200);
    expect((await client.get('/account/carrier')).body.broken).toBeNull();
    expect(await carrierBroken(s.t.c, accountId)).toBeNull();
  });
});
