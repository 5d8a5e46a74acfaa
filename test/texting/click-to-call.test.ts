// Click-to-call (issue 68) against the loopback Twilio stand-in, with Twilio's signed webhooks (TwiML
// read as XML): a member calls back a person who texted: Twilio's Calls API rings the member's phone
// first (typed once, kept on their profile) from the tracking number; its TwiML says whom they call and
// dials the person with the tracking number as caller id, recorded with the domain's announcement to
// the person; the person's leg ends the call with its length. It is outbound in the calls log and the
// data API, and in no lead count, overview, first-time callers or ad platform.
import { randomBytes } from 'node:crypto';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { DATA_KEY, trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { twilioPost } from '../helpers/telephony.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const TWILIO = { sid: 'AC12121212121212121212121212121212', token: 'token-of-the-click-to-call-account' };
const OWNER = { username: 'owner@shop.test', password: 'click to call owner password' };
const ANALYST = { username: 'analyst@shop.test', password: 'click to call analyst password', role: 'analyst', domains: ['shop.test'] };
const TRACKING = '+33800000001';
const LEAD = '+33612345678';
let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(TWILIO.sid, TWILIO.token, { numbers: [standInNumber(TRACKING)] })]);
});
afterAll(() => api.close());
const s = useSeededCollector('click_to_call', trackingFixture({ users: [OWNER, ANALYST], settings: { recording: { enabled: true } } }), {
  secretsKey: randomBytes(32),
  get twilioApiBase() {
    return api.base;
  },
});

const twimlOf = (text: string) => new JSDOM(text, { contentType: 'text/xml' }).window.document;
/** A Twilio request about the placed call, at the path of a URL it was given (absolute or relative to /telephony/twilio/). */
const twilioAt = (url: string, fields: Record<string, string>, token = TWILIO.token) => {
  const at = new URL(url, 'http://collector.test/telephony/twilio/');
  return twilioPost(s.collector.baseUrl, `${at.pathname.replace('/telephony/twilio', '')}${at.search}`, { AccountSid: TWILIO.sid, ...fields }, token);
};

let owner: ManageClient;
describe('click-to-call', () => {
  it('rings the member first from the tracking number, then dials the person with it as caller id, recorded with the announcement to them', async () => {
    owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: TWILIO.sid, authToken: TWILIO.token })).status).toBe(200);
    await twilioPost(s.collector.baseUrl, '/sms', { AccountSid: TWILIO.sid, MessageSid: 'SM-ctc-1', From: LEAD, To: TRACKING, Body: 'Please call me back', NumSegments: '1' }, TWILIO.token);
    const personId = (await s.t.c.conversations.findOne({ phone: '0612345678' }))!.personId!;
    const overviewBefore = (await owner.get(`/domains/shop.test/reports/overview?from=${daysAroundNow().from}&to=${daysAroundNow().to}`)).body;

    const analyst = await signedInClient(s.collector.baseUrl, ANALYST.username, ANALYST.password);
    expect((await analyst.call('POST', `/domains/shop.test/people/${personId}/call`, {})).status).toBe(403);
    expect(await owner.call('POST', `/domains/shop.test/people/${personId}/call`, {})).toMatchObject({ status: 400, body: { error: expect.stringContaining('phone: your own phone, rung first, is not known') } });
    const placed = await owner.call('POST', `/domains/shop.test/people/${personId}/call`, { phone: '06 99 88 77 66' });
    expect(placed).toMatchObject({ status: 201, body: { direction: 'outbound' } });
    // The phone typed once is kept on the member's profile.
    expect((await s.t.c.users.findOne({ _id: OWNER.username }))!.phone).toBe('0699887766');
    const leg = api.calls.at(-1)!;
    expect(leg).toMatchObject({ accountSid: TWILIO.sid, from: TRACKING, to: '+33699887766' });

    // The member picks up: Twilio asks for the call's TwiML.
    const forged = await twilioAt(leg.url, { CallSid: leg.sid, CallStatus: 'in-progress', From: TRACKING, To: '+33699887766' }, 'a-forged-token');
    expect(forged.status).toBe(403);
    const answered = await twilioAt(leg.url, { CallSid: leg.sid, CallStatus: 'in-progress', From: TRACKING, To: '+33699887766' });
    const twiml = twimlOf(answered.text);
    expect(twiml.querySelector('Say')!.textContent).toBe('Calling 0 6 1 2 3 4 5 6 7 8 from your tracking number.');
    const dial = twiml.querySelector('Dial')!;
    expect(dial.getAttribute('callerId')).toBe(TRACKING);
    expect(dial.getAttribute('record')).toBe('record-from-answer-dual');
    expect(dial.getAttribute('recordingStatusCallback')).toBe('recording');
    const number = dial.querySelector('Number')!;
    expect(number.textContent).toBe(LEAD);
    // The person hears the recording announcement when they pick up.
    const announced = twimlOf((await twilioAt(number.getAttribute('url')!, { CallSid: `${leg.sid}-leg`, ParentCallSid: leg.sid, CallStatus: 'in-progress' })).text);
    expect(announced.querySelector('Say')!.textContent).toContain('enregistr');

    // The person's leg ends after 42 s (the call placed a minute ago); then the member's.
    await s.t.c.calls.updateOne({ _id: placed.body.callId }, { $set: { startedAt: new Date(Date.now() - 60_000) } });
    await twilioAt(dial.getAttribute('action')!, { CallSid: leg.sid, CallStatus: 'in-progress', DialCallSid: `${leg.sid}-leg`, DialCallStatus: 'completed', DialCallDuration: '42' });
    await twilioAt(leg.statusCallback!, { CallSid: leg.sid, CallStatus: 'completed', CallDuration: '50' });
    const call = (await s.t.c.calls.findOne({ _id: placed.body.callId }))!;
    expect(call).toMatchObject({ direction: 'outbound', callRef: leg.sid, caller: '0612345678', trackingNumber: '0800000001', status: 'SUCCESS', duration: 42, lead: false, firstCall: null, personId, outbound: { by: OWNER.username, memberPhone: '0699887766', memberAnswered: true } });

    // Listed as outbound, counted nowhere.
    const { from, to } = daysAroundNow();
    const log = (await owner.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}&direction=outbound`)).body;
    expect(log.calls.find((c: { callId: number }) => c.callId === call._id)).toMatchObject({ direction: 'outbound', placedBy: OWNER.username });
    // The log of calls received leaves it out, as the overview does (issue 80).
    expect((await owner.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}`)).body.calls.map((c: { callId: number }) => c.callId)).not.toContain(call._id);
    // The data API lists it when asked for calls placed (its counts and default listing are of calls received).
    const dataApi = (extra: Record<string, string> = {}) => s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 50, ...extra });
    expect((await dataApi()).body.results.map((r: { call_id: number }) => r.call_id)).not.toContain(call._id);
    expect((await dataApi({ direction: 'outbound' })).body).toMatchObject({ status: 'OK', total_results: 1, results: [{ call_id: call._id, direction: 'outbound', placed_by: OWNER.username, lead: false, caller: '0612345678', tracking_number: '0800000001' }] });
    expect((await dataApi({ direction: 'inbound' })).body).toEqual({ status: 'ERROR', errors: ['Invalid parameter direction'] });
    const overviewAfter = (await owner.get(`/domains/shop.test/reports/overview?from=${from}&to=${to}`)).body;
    expect(overviewAfter.totals ?? overviewAfter).toEqual(overviewBefore.totals ?? overviewBefore);
    expect(await s.t.c.outbox.countDocuments({ kind: { $in: ['ads', 'crm', 'webhook', 'analytics', 'rules'] } })).toBe(0);
  });

  it('says when the member did not pick up, and refuses a person with no number or a number of another domain', async () => {
    const personId = (await s.t.c.conversations.findOne({ phone: '0612345678' }))!.personId!;
    const placed = await owner.call('POST', `/domains/shop.test/people/${personId}/call`, {});
    expect(placed.status).toBe(201);
    const leg = api.calls.at(-1)!;
    expect(leg.to).toBe('+33699887766');
    await twilioAt(leg.statusCallback!, { CallSid: leg.sid, CallStatus: 'no-answer', CallDuration: '0' });
    expect(await s.t.c.calls.findOne({ _id: placed.body.callId })).toMatchObject({ status: 'NORESPONSE', outbound: { memberAnswered: false } });
    expect(await owner.call('POST', `/domains/shop.test/people/${personId}/call`, { trackingNumber: '0100000099' })).toMatchObject({ status: 400, body: { error: 'trackingNumber: 0100000099 is no tracking number of shop.test' } });
    expect((await owner.call('POST', '/domains/shop.test/people/999999/call', {})).status).toBe(404);
  });

  // Issue 80: the data API's default listing returned a call placed on a page whose total_results
  // left it out (so did tracking_phone, and tracking_phone with phone); the log counted it too.
  it('keeps the calls placed out of every listing of calls received: the data API, its filters, the log', async () => {
    // Two calls received on the same tracking number, forwarded to the site's number.
    for (const [i, from] of ['+33655000001', '+33655000002'].entries()) {
      const call = { AccountSid: TWILIO.sid, CallSid: `CA-received-${i}`, From: from, To: TRACKING };
      await twilioPost(s.collector.baseUrl, '/voice', { ...call, CallStatus: 'ringing' }, TWILIO.token);
      await twilioPost(s.collector.baseUrl, '/status', { ...call, CallStatus: 'completed', CallDuration: '20' }, TWILIO.token);
    }
    const placed = await s.t.c.calls.countDocuments({ direction: 'outbound' });
    expect(placed).toBeGreaterThanOrEqual(2);
    const received = await s.t.c.calls.find({ direction: { $exists: false }, status: { $ne: null } }).toArray();
    expect(received).toHaveLength(2);
    const { from, to } = daysAroundNow();
    const listing = async (extra: Record<string, string>) => (await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 50, ...extra })).body;
    const destination = received[0]!.destination!;
    for (const filters of [{}, { tracking_phone: '0800000001' }, { tracking_phone: '0800000001', phone: destination }, { phone: destination }] as Record<string, string>[]) {
      const body = await listing(filters);
      expect(body.results.map((r: { direction?: string }) => r.direction ?? 'received'), JSON.stringify(filters)).toEqual(['received', 'received']);
      expect(body.total_results, JSON.stringify(filters)).toBe(2);
    }
    expect((await listing({ direction: 'outbound' })).total_results).toBe(placed);
    // The log counts what the overview counts.
    const log = (await owner.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}`)).body;
    const overview = (await owner.get(`/domains/shop.test/reports/overview?from=${from}&to=${to}`)).body;
    expect(log.total).toBe(2);
    expect(overview.totals.calls).toBe(2);
    expect((await owner.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}&direction=outbound`)).body.total).toBe(placed);
  });
});
