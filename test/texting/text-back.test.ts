// Text back a missed caller (issue 80) through the account's Twilio (the loopback stand-in of its
// Messages API): off until the domain turns it on; then a caller nobody answered is texted once from
// the number they called, in the inbox thread of that number; never twice a day (two reports of the
// ending at once included), never to a landline, an anonymous or an answered caller, a number that
// opted out, nor outside the texting hours.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY, twilioPost } from '../helpers/telephony.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';
import { until } from '../helpers/until.ts';
import { DEFAULT_TEXT_BACK } from '../../collector/src/texting/settings.ts';

const A = { sid: 'AC99999999999999999999999999999999', token: 'token-of-text-back-account' };
const OWNER = { username: 'owner@shop.test', password: 'text back owner password' };
const TRACKING = '0100000001';

let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(A.sid, A.token, { numbers: [standInNumber('+33100000001')] })]);
});
afterAll(() => api.close());

const s = useSeededCollector('text_back', trackingFixture({ users: [OWNER] }), {
  secretsKey: randomBytes(32),
  telephonyApiKey: TELEPHONY_KEY,
  delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false },
  get twilioApiBase() {
    return api.base;
  },
});

let owner: ManageClient;
let calls = 0;
/** A call to the tracking number that ended as `status`, reported by the PBX. */
async function ended(callerPhone: string, status: 'NORESPONSE' | 'SUCCESS' | 'BUSY', callRef = `tb-${++calls}`): Promise<number> {
  const { status: code, body } = await reportCall(s.collector.baseUrl, { callRef, trackingNumber: TRACKING, startDate: new Date(), status, duration: status === 'SUCCESS' ? 60 : 0, callerPhone });
  expect(code).toBe(200);
  return body.callId as number;
}
/** Every text-back job done (sent, or refused with why). */
const settled = () => until(async () => (await s.t.c.outbox.countDocuments({ kind: 'text' })) === 0, 'the text backs done');
const textsTo = (e164: string) => api.messages.filter((m) => m.to === e164);
const setTextBack = (textBack: unknown) => owner.call('PUT', '/domains/shop.test/texting', { helpText: null, savedReplies: [], textBack });

describe('text back a missed caller', () => {
  it('texts nobody while the domain has not turned it on', async () => {
    owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: A.sid, authToken: A.token })).status).toBe(200);
    expect((await owner.get('/domains/shop.test/texting')).body.textBack).toEqual({ enabled: false, message: DEFAULT_TEXT_BACK, hours: null });
    const callId = await ended('0611000001', 'NORESPONSE');
    await settled();
    expect(await s.t.c.textBacks.countDocuments({ callId })).toBe(0);
    expect(api.messages).toEqual([]);
  });

  it('texts a missed mobile caller once, from the number they called, in the inbox thread', async () => {
    const set = await setTextBack({ enabled: true, message: 'Sorry we missed you! Reply here and we call you back.' });
    expect(set.status).toBe(200);
    const callId = await ended('06 11 00 00 02', 'NORESPONSE');
    await settled();
    expect(textsTo('+33611000002')).toEqual([expect.objectContaining({ from: '+33100000001', body: 'Sorry we missed you! Reply here and we call you back.' })]);
    expect(await s.t.c.textBacks.findOne({ callId })).toMatchObject({ state: 'sent', textId: expect.stringMatching(/^out:/), error: null });

    const list = (await owner.get('/domains/shop.test/conversations')).body;
    const thread = list.conversations.find((c: { phone: string }) => c.phone === '06 11 00 00 02');
    expect(thread).toMatchObject({ unread: 0, lastDirection: 'outbound', lastText: 'Sorry we missed you! Reply here and we call you back.' });
    const opened = (await owner.get(`/domains/shop.test/conversations/${thread.id}`)).body;
    expect(opened.entries.filter((e: { type: string }) => e.type === 'text')).toEqual([expect.objectContaining({ direction: 'outbound', by: 'text-back', body: 'Sorry we missed you! Reply here and we call you back.' })]);
    // The missed call itself is in the thread, before the text.
    expect(opened.entries.map((e: { type: string; id?: unknown; callId?: unknown }) => e.type)).toEqual(['call', 'text']);

    // Missed again the same day: no second text.
    await ended('0611000002', 'BUSY');
    await settled();
    expect(textsTo('+33611000002')).toHaveLength(1);
  });

  it('texts once when the ending of a new caller is reported twice at once', async () => {
    const ref = `tb-race-${++calls}`;
    await Promise.all(Array.from({ length: 4 }, () => ended('0611000003', 'NORESPONSE', ref)));
    await Promise.all(Array.from({ length: 3 }, () => ended('0611000003', 'NORESPONSE')));
    await settled();
    expect(textsTo('+33611000003')).toHaveLength(1);
  });

  it('texts no landline, no anonymous caller and nobody answered', async () => {
    const landline = await ended('0145000004', 'NORESPONSE');
    await ended('anonymous', 'NORESPONSE');
    const answered = await ended('0611000005', 'SUCCESS');
    await settled();
    expect(await s.t.c.textBacks.countDocuments({ callId: { $in: [landline, answered] } })).toBe(0);
    expect(textsTo('+33145000004')).toEqual([]);
    expect(textsTo('+33611000005')).toEqual([]);
  });

  it('never texts a number that opted out, and says why', async () => {
    expect((await twilioPost(s.collector.baseUrl, '/sms', { AccountSid: A.sid, MessageSid: 'SM-stop-1', From: '+33611000006', To: '+33100000001', Body: 'STOP', NumSegments: '1' }, A.token)).status).toBe(200);
    const callId = await ended('0611000006', 'NORESPONSE');
    await settled();
    expect(textsTo('+33611000006')).toEqual([]);
    expect(await s.t.c.textBacks.findOne({ callId })).toMatchObject({ state: 'refused', error: expect.stringContaining('This number opted out: they texted STOP') });
  });

  it('texts nobody outside the texting hours', async () => {
    const closed = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
    expect((await setTextBack({ enabled: true, hours: { week: closed } })).status).toBe(200);
    const callId = await ended('0611000007', 'NORESPONSE');
    await settled();
    expect(await s.t.c.textBacks.countDocuments({ callId })).toBe(0);
    expect(textsTo('+33611000007')).toEqual([]);
    // Open all day, every day: it goes, with the default text.
    const open = Object.fromEntries(Object.keys(closed).map((d) => [d, [{ from: '00:00', to: '24:00' }]]));
    expect((await setTextBack({ enabled: true, hours: { week: open } })).status).toBe(200);
    await ended('0611000008', 'NORESPONSE');
    await settled();
    expect(textsTo('+33611000008')).toEqual([expect.objectContaining({ body: DEFAULT_TEXT_BACK })]);
  });

  it('refuses texting hours that make no sense, with the field named, and keeps the settings', async () => {
    const refused = await setTextBack({ enabled: true, hours: { week: { mon: [{ from: '18:00', to: '09:00' }] } } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('must end after it starts');
    expect((await owner.get('/domains/shop.test/texting')).body.textBack).toMatchObject({ enabled: true, message: DEFAULT_TEXT_BACK });
  });
});
