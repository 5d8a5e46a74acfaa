// A US agency's Twilio account (issue 81), through the official `twilio` library against the loopback
// stand-in of Twilio's published APIs: numbers bought only at a price the owner saw and confirmed
// (the Pricing API), the activity log saying who bought what for how much; US texting registration
// (A2P 10DLC): the local numbers outside any Messaging Service said unregistered, a campaign refused
// in words, then registered (a service made that keeps each number's own webhook, the numbers added),
// pending until approved; a text failed with 30034 said in words with what to do.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { twilioPost } from '../helpers/telephony.ts';
import { standInAccount, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const OWNER = { username: 'owner@plumbing.test', password: 'us texting owner password' };
const SID = 'AC10101010101010101010101010101010';
const TOKEN = 'token-of-the-us-agency-account';
const BRAND = 'BN0123456789abcdef0123456789abcdef';
const ON_SALE = ['+14155550181', '+14155550182', '+14155550183'];
const CAMPAIGN = {
  brandRegistrationSid: BRAND,
  useCase: 'CUSTOMER_CARE',
  description: 'Answers to customers who text our tracking numbers about plumbing jobs, quotes and appointments.',
  messageFlow: 'Customers text our number first, from our website or ads; we only reply to them. They can text STOP at any time.',
  messageSamples: ['Hi Jane, yes we can come on Saturday at 10 am. Does that suit you?', 'Sorry we missed your call! How can we help? Reply to this text.'],
};

let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(SID, TOKEN, { available: { US: { Local: ON_SALE, TollFree: ['+18445550101'] } } })]);
});
afterAll(() => api.close());

const s = useSeededCollector('us_texting', trackingFixture({ users: [OWNER], settings: { country: 'US', timeZone: 'America/Los_Angeles', sitePhones: ['4155550100'] } }), {
  secretsKey: randomBytes(32),
  get twilioApiBase() {
    return api.base;
  },
});
const account = () => api.accounts.get(SID)!;

describe('a US agency on Twilio', () => {
  let owner: ManageClient;
  beforeAll(async () => {
    owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: SID, authToken: TOKEN })).status).toBe(200);
    expect((await owner.call('POST', '/domains/shop.test/pools', { type: 100, usage: 'online', codeDigits: 0 })).status).toBe(201);
  });

  it("quotes Twilio's monthly price of the pool's numbers, and buys nothing above the price confirmed", async () => {
    expect((await owner.get('/domains/shop.test/pools/100/numbers/price?count=2')).body).toEqual({ price: { amount: 1.15, currency: 'USD' }, count: 2, monthlyTotal: 2.3 });
    expect(api.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/PhoneNumbers/Countries/US' });
    expect((await owner.get('/domains/shop.test/pools/100/numbers/price?count=99')).body.error).toContain('count: must be 1 to 50');
    const refused = await owner.call('POST', '/domains/shop.test/pools/100/numbers/buy', { count: 2, monthlyPrice: 1 });
    expect(refused).toMatchObject({ status: 409, body: { error: expect.stringContaining('The monthly price changed: the carrier lists 1.15 USD a number now, and 1 was confirmed. Nothing was bought'), price: { amount: 1.15, currency: 'USD' } } });
    expect(account().numbers).toEqual([]);
  });

  it('buys at the confirmed price, the activity log saying who bought which numbers for how much', async () => {
    const bought = await owner.call('POST', '/domains/shop.test/pools/100/numbers/buy', { count: 2, monthlyPrice: 1.15 });
    expect(bought.body).toEqual({ results: [{ number: '+14155550181', ok: true }, { number: '+14155550182', ok: true }] });
    const entry = await s.t.c.auditLog.findOne({ action: 'numbers.buy' });
    expect(entry).toMatchObject({ username: OWNER.username, details: { pool: 'Local numbers', count: 2, bought: ['(415) 555-0181', '(415) 555-0182'], monthlyPrice: '$1.15', monthlyTotal: '$2.30' } });
  });

  it('makes the pool a purchase goes into when the domain has none of that type yet', async () => {
    expect((await owner.get('/domains/shop.test/pools/101/numbers/price')).status).toBe(404);
    const bought = await owner.call('POST', '/domains/shop.test/pools/101/numbers/buy', { count: 1, monthlyPrice: 2.15 });
    expect(bought.body).toEqual({ results: [{ number: '+18445550101', ok: true }] });
    expect((await s.t.c.domains.findOne({ _id: 'shop.test' }))!.pools.find((p) => p.type === 101)).toEqual({ type: 101, usage: 'online', codeDigits: 0 });
    expect((await s.t.c.auditLog.findOne({ action: 'numbers.buy', 'details.pool': 'Toll-free numbers' }))!.details).toMatchObject({ bought: ['(844) 555-0101'], monthlyTotal: '$2.15' });
  });

  it('says the local numbers are in no Messaging Service, so not registered for US texting', async () => {
    const standing = (await owner.get('/domains/shop.test/texting/us-registration')).body;
    expect(standing).toMatchObject({ required: true, ready: false, brands: [], brandConsoleUrl: expect.stringContaining('console.twilio.com') });
    expect(standing.numbers).toEqual([
      { number: '+14155550181', shown: '(415) 555-0181', service: null, campaign: null, registered: false },
      { number: '+14155550182', shown: '(415) 555-0182', service: null, campaign: null, registered: false },
    ]);
  });

  it('refuses a campaign in words: its fields, then a brand Twilio has not approved', async () => {
    const short = await owner.call('POST', '/domains/shop.test/texting/us-registration/campaign', { ...CAMPAIGN, description: 'Texts', messageSamples: ['Hello'] });
    expect(short.status).toBe(400);
    expect(short.body.error).toContain('description: must be at least 40 characters');
    const unapproved = await owner.call('POST', '/domains/shop.test/texting/us-registration/campaign', CAMPAIGN);
    expect(unapproved).toMatchObject({ status: 400, body: { error: 'Twilio refused the request: The brand is not approved (Twilio error 21714)' } });
  });

  it('registers the campaign under the approved brand: a service keeping each number\'s webhook, the numbers in it, pending until approved', async () => {
    account().brands.push({ sid: BRAND, status: 'APPROVED', failureReason: null });
    const made = await owner.call('POST', '/domains/shop.test/texting/us-registration/campaign', CAMPAIGN);
    expect(made).toMatchObject({ status: 201, body: { status: 'PENDING', useCase: 'CUSTOMER_CARE', brandRegistrationSid: BRAND } });
    const [service] = account().services;
    expect(service).toMatchObject({ friendlyName: 'RingTrail shop.test', useInboundWebhookOnNumber: true, numberSids: account().numbers.filter((n) => n.phone_number.startsWith('+1415')).map((n) => n.sid) });
    expect(service!.campaign).toMatchObject({ messageSamples: CAMPAIGN.messageSamples, form: expect.objectContaining({ HelpMessage: expect.stringContaining('Test account: you are texting'), UsAppToPersonUsecase: 'CUSTOMER_CARE' }) });
    // The numbers' own webhooks stay the collector's.
    for (const n of account().numbers) expect(n.sms_url).toMatch(/\/telephony\/twilio\/sms$/);
    let standing = (await owner.get('/domains/shop.test/texting/us-registration')).body;
    expect(standing).toMatchObject({ ready: false, brands: [{ sid: BRAND, status: 'APPROVED' }] });
    expect(standing.numbers[0]).toMatchObject({ service: { name: 'RingTrail shop.test' }, campaign: { status: 'PENDING' }, registered: false });
    service!.campaign!.status = 'VERIFIED';
    standing = (await owner.get('/domains/shop.test/texting/us-registration')).body;
    expect(standing.ready).toBe(true);
    expect(standing.numbers.every((n: { registered: boolean }) => n.registered)).toBe(true);
    const again = await owner.call('POST', '/domains/shop.test/texting/us-registration/campaign', CAMPAIGN);
    expect(again).toMatchObject({ status: 400, body: { error: 'Every US local number of shop.test is in a campaign already: its review goes on at Twilio' } });
    const logged = await s.t.c.auditLog.findOne({ action: 'texting.campaign' });
    expect(logged).toMatchObject({ username: OWNER.username, details: { useCase: 'CUSTOMER_CARE', brand: BRAND } });
  });

  it('says in words that a text failed with 30034 because its number is not registered, and what to do', async () => {
    const from = '+14155550199';
    await twilioPost(s.collector.baseUrl, '/sms', { AccountSid: SID, MessageSid: 'SM-us-in-1', From: from, To: '+14155550181', Body: 'Do you fix water heaters?', NumSegments: '1' }, TOKEN);
    const [conversation] = (await owner.get('/domains/shop.test/conversations')).body.conversations;
    expect((await owner.call('POST', `/domains/shop.test/conversations/${conversation.id}/messages`, { body: 'Yes we do! When suits you?' })).status).toBe(201);
    const sent = api.messages.at(-1)!;
    const url = new URL(sent.statusCallback!);
    await twilioPost(s.collector.baseUrl, `${url.pathname.replace('/telephony/twilio', '')}${url.search}`, { AccountSid: SID, MessageSid: sent.sid, MessageStatus: 'undelivered', From: sent.from, To: sent.to, ErrorCode: '30034' }, TOKEN);
    const texts = (await owner.get(`/domains/shop.test/conversations/${conversation.id}`)).body.entries.filter((e: { direction?: string }) => e.direction === 'outbound');
    expect(texts.at(-1)).toMatchObject({ status: 'undelivered', error: expect.stringMatching(/^the tracking number is not registered for US texting \(A2P 10DLC\).*Register a brand and a campaign in Settings, Texting.*\(Twilio error 30034\)$/) });
  });

  it("writes the member's own phone on their profile as Americans write it", async () => {
    expect((await owner.call('PUT', '/profile/availability', { phone: '415-555-0111' })).status).toBe(200);
    expect((await owner.get('/profile/availability')).body).toEqual({ phone: '(415) 555-0111', available: true });
  });

  it('asks nothing of a domain outside the US', async () => {
    await s.t.c.domains.updateOne({ _id: 'shop.test' }, { $set: { country: 'FR' } });
    expect((await owner.get('/domains/shop.test/texting/us-registration')).body).toMatchObject({ required: false, ready: true, numbers: [] });
    await s.t.c.domains.updateOne({ _id: 'shop.test' }, { $set: { country: 'US' } });
  });
});
