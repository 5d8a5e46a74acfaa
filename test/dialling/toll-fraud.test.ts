// Nobody dials the world on the owner's bill (issue 79), tried as the attack was, through the
// official twilio library against the loopback stand-in of Twilio's API: an agent's click-to-call
// to a satellite, a US premium and a Cuban number; a premium line as a member's phone, a flow's
// target or the redirect; a tracking number of the account as a phone or a forward; a person who
// texted from a premium number called back and texted back; 25 calls at once past the hour's limit;
// and a US domain's `(415) 555-0160` dialled as +1 415, not Switzerland's +41 55.
import { randomBytes } from 'node:crypto';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRing } from '../../collector/src/flows/ring-targets.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { twilioPost } from '../helpers/telephony.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const TWILIO = { sid: 'AC79797979797979797979797979797979', token: 'token-of-the-toll-fraud-account' };
const OWNER = { username: 'owner@shop.test', password: 'toll fraud owner password' };
const AGENT = { username: 'agent@shop.test', password: 'toll fraud agent password', role: 'agent', domains: ['shop.test', 'us.test'] };
const TRACKING = '+33800000001';
const US_TRACKING = '+14155550100';
const LEAD = '+33612345678';
const PREMIUM_TEXTER = '+449098790000';

let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(TWILIO.sid, TWILIO.token, { numbers: [standInNumber(TRACKING), standInNumber(US_TRACKING)] })]);
});
afterAll(() => api.close());

const fixture = trackingFixture({ users: [OWNER, AGENT] });
fixture.accounts[0]!.domains.push({ name: 'us.test', country: 'US', timeZone: 'America/Los_Angeles', sitePhones: ['4155550199'], pools: [{ type: 100, usage: 'online', numbers: ['4155550100'] }] } as never);
const s = useSeededCollector('toll_fraud', fixture, {
  secretsKey: randomBytes(32),
  get twilioApiBase() {
    return api.base;
  },
});

const twimlOf = (text: string) => new JSDOM(text, { contentType: 'text/xml' }).window.document;
const texted = (from: string, to: string, sid: string) => twilioPost(s.collector.baseUrl, '/sms', { AccountSid: TWILIO.sid, MessageSid: sid, From: from, To: to, Body: 'Call me back', NumSegments: '1' }, TWILIO.token);
const personOf = async (phone: string) => (await s.t.c.conversations.findOne({ phone }))!.personId!;

let owner: ManageClient;
let agent: ManageClient;
let leadId: number;
describe('toll fraud', () => {
  it("refuses click-to-call to satellite, premium-rate and other countries' numbers, and nothing reaches Twilio", async () => {
    owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    agent = await signedInClient(s.collector.baseUrl, AGENT.username, AGENT.password);
    expect((await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: TWILIO.sid, authToken: TWILIO.token })).status).toBe(200);
    await texted(LEAD, TRACKING, 'SM-fraud-1');
    leadId = await personOf('0612345678');
    const call = (phone: string) => agent.call('POST', `/domains/shop.test/people/${leadId}/call`, { phone });

    expect(await call('+882 1234 5678')).toMatchObject({ status: 400, body: { error: 'phone: +882 12345678 is a satellite or international network number: calls and texts to such numbers are refused unless an owner allows them (Account, Dialling)' } });
    expect(await call('+1 900 555 0100')).toMatchObject({ status: 400, body: { error: expect.stringContaining('phone: +1 900 555 0100 is a premium-rate number') } });
    expect(await call('+53 5 123 4567')).toMatchObject({ status: 400, body: { error: 'phone: +53 5 1234567 is a number of CU, and this account calls and texts FR, US only: an owner adds countries in Account, Dialling' } });
    expect(await call('+44 909 879 0000')).toMatchObject({ status: 400, body: { error: expect.stringContaining('premium-rate') } });
    // The account's own tracking number as the phone rung first: the call would come back in.
    expect(await call('08 00 00 00 01')).toMatchObject({ status: 400, body: { error: expect.stringContaining('is a tracking number of this account') } });
    expect(api.calls).toHaveLength(0);
    // Nothing refused was kept on the profile.
    expect((await s.t.c.users.findOne({ _id: AGENT.username }))!.phone).toBeUndefined();
  });

  it("refuses a premium line or a tracking number as a member's phone, a flow's target or forward, and the redirect", async () => {
    expect(await agent.call('PUT', '/profile/availability', { phone: '+44 909 879 0000' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('phone: +44 909 879 0000 is a premium-rate number') } });
    expect(await agent.call('PUT', '/profile/availability', { phone: '+33 8 00 00 00 01' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('tracking number of this account') } });
    const flow = (steps: Record<string, unknown>) => owner.call('POST', '/domains/shop.test/flows', { name: 'Fraud', start: 'main', steps });
    expect(await flow({ main: { kind: 'ring', strategy: 'simultaneous', targets: [{ number: '06 12 34 56 78' }, { number: '+44 909 879 0000' }], noAnswer: 'bye' }, bye: { kind: 'hangup' } })).toMatchObject({ status: 400, body: { error: expect.stringContaining('steps.main.targets.1.number: +44 909 879 0000 is a premium-rate number') } });
    expect(await flow({ main: { kind: 'forward', number: '08 00 00 00 02' } })).toMatchObject({ status: 400, body: { error: expect.stringContaining('steps.main.number: +33 800 00 00 02 is a tracking number of this account') } });
    expect(await owner.call('PATCH', '/domains/shop.test', { redirectPhone: '+1 900 555 0100' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('redirectPhone: +1 900 555 0100 is a premium-rate number') } });
    expect(await s.t.c.callFlows.countDocuments({})).toBe(0);
    expect((await s.t.c.domains.findOne({ _id: 'shop.test' }))!.redirectPhone ?? null).toBeNull();
  });

  it('skips at ring time a premium phone kept before the rules, saying why', async () => {
    await s.t.c.users.updateOne({ _id: AGENT.username }, { $set: { phone: '00449098790000' } });
    const ring = { kind: 'ring' as const, at: { step: 'main', tries: 0 }, strategy: 'simultaneous' as const, ringSeconds: 20, stickyDays: null, targets: [{ member: AGENT.username, weight: 1 }, { number: '0612345678', name: 'Desk', weight: 1 }] };
    const plan = await planRing(s.t.c, ring, { domainId: 'shop.test', accountId: (await s.t.c.domains.findOne({ _id: 'shop.test' }))!.accountId, flowId: 'f', caller: null, at: new Date() });
    expect(plan.legs.map((l) => l.number)).toEqual(['0612345678']);
    expect(plan.skipped).toEqual([expect.stringContaining(`${AGENT.username}: +44 909 879 0000 is a premium-rate number`)]);
    await s.t.c.users.updateOne({ _id: AGENT.username }, { $unset: { phone: 1 } });
  });

  it('checks a number that came from a text like any other: no call back, no text back, and the agent is told why', async () => {
    await texted(PREMIUM_TEXTER, TRACKING, 'SM-fraud-2');
    const premium = await personOf('00449098790000');
    const refused = await agent.call('POST', `/domains/shop.test/people/${premium}/call`, { phone: '06 99 88 77 66' });
    expect(refused).toMatchObject({ status: 400, body: { error: expect.stringContaining("the person's number: +44 909 879 0000 is a premium-rate number") } });
    const conversation = (await s.t.c.conversations.findOne({ phone: '00449098790000' }))!;
    const reply = await agent.call('POST', `/domains/shop.test/conversations/${conversation._id}/messages`, { body: 'Hello' });
    expect(reply).toMatchObject({ status: 400, body: { error: expect.stringContaining('to: +44 909 879 0000 is a premium-rate number') } });
    expect(api.calls).toHaveLength(0);
    expect(api.messages.filter((m) => m.to === PREMIUM_TEXTER)).toHaveLength(0);
  });

  it('lets 20 of 25 calls fired at once through (the member’s hourly limit), the others refused in words, each placed one named in the activity log', async () => {
    const results = await Promise.all(Array.from({ length: 25 }, () => agent.call('POST', `/domains/shop.test/people/${leadId}/call`, { phone: '06 99 88 77 66' })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(5);
    expect(limited[0]!.body.error).toMatch(/^You have placed 20 calls this hour, your limit: try again in \d+ (s|min), or ask an owner to raise it/);
    expect(api.calls).toHaveLength(20);
    const logged = await s.t.c.auditLog.find({ action: 'person.call', username: AGENT.username }).toArray();
    expect(logged).toHaveLength(20);
    expect(logged[0]!.details).toMatchObject({ dialled: LEAD, memberPhone: '+33699887766' });
  });

  it('lets an owner, and only an owner, allow a country and a special range', async () => {
    expect((await agent.call('PUT', '/account/dialling', { allowed: ['premium-rate'] })).status).toBe(403);
    expect(await owner.call('PUT', '/account/dialling', { allowed: ['nope'] })).toMatchObject({ status: 400 });
    expect((await owner.get('/account/dialling')).body).toMatchObject({ countries: ['FR', 'US'], countriesOwn: false, allowed: [], limits: { callsPerMember: 20 } });
    const changed = await owner.call('PUT', '/account/dialling', { countries: ['FR', 'US', 'GB'], allowed: ['premium-rate'] });
    expect(changed).toMatchObject({ status: 200, body: { countries: ['FR', 'GB', 'US'], countriesOwn: true, allowed: ['premium-rate'] } });
    expect((await agent.call('PUT', '/profile/availability', { phone: '+44 909 879 0000' })).status).toBe(200);
    // Still never Cuba, nor a satellite.
    expect((await owner.call('PUT', '/profile/availability', { phone: '+53 5 123 4567' })).status).toBe(400);
    expect((await owner.call('PUT', '/profile/availability', { phone: '+881 6 123 45678' })).status).toBe(400);
  });

  it("reads a US domain's typed phone in the US, and says the person's number as the US writes it", async () => {
    await texted('+14155550123', US_TRACKING, 'SM-fraud-us');
    const usLead = await personOf('0014155550123');
    const placed = await owner.call('POST', `/domains/us.test/people/${usLead}/call`, { phone: '(415) 555-0160' });
    expect(placed.status).toBe(201);
    const leg = api.calls.at(-1)!;
    expect(leg).toMatchObject({ from: US_TRACKING, to: '+14155550160' });
    expect((await s.t.c.users.findOne({ _id: OWNER.username }))!.phone).toBe('0014155550160');
    const at = new URL(leg.url, 'http://collector.test/telephony/twilio/');
    const answered = await twilioPost(s.collector.baseUrl, `${at.pathname.replace('/telephony/twilio', '')}${at.search}`, { AccountSid: TWILIO.sid, CallSid: leg.sid, CallStatus: 'in-progress' }, TWILIO.token);
    expect(twimlOf(answered.text).querySelector('Say')!.textContent).toBe('Calling 4 1 5 5 5 5 0 1 2 3 from your tracking number.');
  });

  it("never keeps a person's talk longer than the call has lasted", async () => {
    const leg = api.calls.at(-1)!;
    const call = (await s.t.c.calls.findOne({ callRef: leg.sid }))!;
    const at = new URL(`outbound-dial?call=${call._id}`, 'http://collector.test/telephony/twilio/');
    await twilioPost(s.collector.baseUrl, `${at.pathname.replace('/telephony/twilio', '')}${at.search}`, { AccountSid: TWILIO.sid, CallSid: leg.sid, DialCallStatus: 'completed', DialCallDuration: '86400' }, TWILIO.token);
    const after = (await s.t.c.calls.findOne({ _id: call._id }))!;
    expect(after.status).toBe('SUCCESS');
    expect(after.duration).toBeLessThanOrEqual(Math.ceil((Date.now() - call.startedAt.getTime()) / 1000));
  });
});
