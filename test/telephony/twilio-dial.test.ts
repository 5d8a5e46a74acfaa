// The Twilio adapter's <Dial action>: the forwarded leg's true outcome, the no-answer redirect (an
// online and an offline number), the whisper, and a blocked caller refused. Every request is signed
// and carries the fields Twilio documents for it.
import { describe, expect, it } from 'vitest';
import { useSeededCollector, type SeededCollector } from '../helpers/collector.ts';
import { DATA_KEY, trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { TWILIO_TOKEN, twilioPost } from '../helpers/telephony.ts';
import { until } from '../helpers/until.ts';
import { daysAroundNow } from '../helpers/days.ts';

const ACCOUNT_SID = 'AC00000000000000000000000000000000';
const XML = '<?xml version="1.0" encoding="UTF-8"?>';

/** A Twilio call's webhooks, each with the fields Twilio sends on that request. */
function twilioCall(s: SeededCollector, sid: string, from: string, to: string) {
  const base = { AccountSid: ACCOUNT_SID, CallSid: sid, From: from, To: to, Caller: from, Called: to, Direction: 'inbound', ApiVersion: '2010-04-01' };
  const post = (path: string, params: Record<string, string>) => twilioPost(s.collector.baseUrl, path, params, TWILIO_TOKEN);
  return {
    voice: () => post('/voice', { ...base, CallStatus: 'ringing' }),
    /** The <Dial action> request: the dialled leg ended with `status` after `seconds` of conversation. */
    dialEnded: (status: string, seconds = 0, leg = '') => post(`/dial${leg}`, { ...base, CallStatus: 'in-progress', DialCallSid: `${sid}-leg`, DialCallStatus: status, DialCallDuration: String(seconds), DialBridged: String(status === 'completed') }),
    /** The <Number url> request, made on the answering party's leg. */
    whisper: (callId: number) => post(`/whisper?call=${callId}`, { ...base, CallSid: `${sid}-leg`, ParentCallSid: sid, Direction: 'outbound-dial', CallStatus: 'in-progress' }),
    ended: (seconds: number) => post('/status', { ...base, CallStatus: 'completed', CallDuration: String(seconds), Timestamp: new Date().toUTCString() }),
  };
}

async function dataApiCalls(s: SeededCollector): Promise<any[]> {
  const { from, to } = daysAroundNow();
  const res = await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 100 });
  return res.body.results;
}

const recordOf = async (s: SeededCollector, caller: string) => (await dataApiCalls(s)).find((r) => r.caller === caller);

async function shownNumber(s: SeededCollector, extra: Record<string, string> = {}): Promise<string> {
  const view = await s.collector.post('/ospView', viewParams(extra));
  return `+33${view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '').slice(1)}`;
}

describe('Twilio <Dial action>: the forwarded leg decides the outcome', () => {
  const s = useSeededCollector('twilio_dial', trackingFixture(), { twilio: { authToken: TWILIO_TOKEN } });

  it('records each DialCallStatus as its Appendix A status, the conversation as the duration', async () => {
    const number = await shownNumber(s);
    const outcomes = { completed: 'SUCCESS', busy: 'BUSY', 'no-answer': 'NORESPONSE', failed: 'ANOMALY', canceled: 'INTERRUPTED' };
    let n = 0;
    for (const [dialStatus, status] of Object.entries(outcomes)) {
      const caller = `+3361122330${n++}`;
      const call = twilioCall(s, `CA-dial-${dialStatus}`, caller, number);
      const voice = await call.voice();
      expect(voice.text).toBe(`${XML}<Response><Dial callerId="${caller}" action="dial" method="POST" timeout="30"><Number>+33123456789</Number></Dial></Response>`);
      const dialed = await call.dialEnded(dialStatus, dialStatus === 'completed' ? 42 : 0);
      expect(dialed.text).toBe(`${XML}<Response/>`); // nothing more: the call ends
      // The inbound call's own status is `completed` whatever happened to the dialled leg.
      await call.ended(dialStatus === 'completed' ? 50 : 21);
      const record = await recordOf(s, `0${caller.slice(3)}`);
      expect(record).toMatchObject({ status, duration: dialStatus === 'completed' ? 42 : 0, billing_duration: 60, is_redirect: false, phone: '0123456789' });
      if (dialStatus !== 'completed') expect(record.answer_time).toBe(0);
    }
  });

  it('counts the answer time from the call coming in to the answer', async () => {
    const number = await shownNumber(s);
    const call = twilioCall(s, 'CA-answer-time', '+33622000001', number);
    const rangAt = Date.now();
    await call.voice();
    await until(() => Date.now() - rangAt >= 3000, 'the destination to ring for 3 s before answering');
    await call.dialEnded('completed', 1);
    const record = await recordOf(s, '0622000001');
    expect(record.duration).toBe(1);
    expect(record.answer_time).toBeGreaterThanOrEqual(2);
    expect(record.answer_time).toBeLessThan(15);
  });

  it('keeps the <Dial action>’s outcome when the inbound status callback arrives at the same moment', async () => {
    const number = await shownNumber(s);
    const calls = Array.from({ length: 8 }, (_, i) => twilioCall(s, `CA-race-${i}`, `+3364400000${i}`, number));
    for (const call of calls) await call.voice();
    // A caller who hangs up while it rings: Twilio sends both requests at once, in either order.
    await Promise.all(calls.flatMap((call, i) => (i % 2 ? [call.dialEnded('canceled'), call.ended(75)] : [call.ended(75), call.dialEnded('canceled')])));
    const records = (await dataApiCalls(s)).filter((r) => r.caller.startsWith('06440000'));
    expect(records).toHaveLength(8);
    for (const record of records) expect(record).toMatchObject({ status: 'INTERRUPTED', duration: 0 });
  });

  it('still closes a call that reached no <Dial> from the inbound status callback', async () => {
    const call = twilioCall(s, 'CA-no-dial', '+33622000002', '+33800000003');
    await call.ended(12); // Twilio sends it even when the voice webhook failed to answer
    expect(await recordOf(s, '0622000002')).toMatchObject({ status: 'NOTASSIGNED', duration: 12 });
  });
});

describe('Twilio: no-answer redirect and whisper', () => {
  const fixture = trackingFixture({
    timeZone: 'Europe/Paris',
    settings: { redirectPhone: '06 11 00 00 00', redirect: { enabled: true, timetable: [] }, redirectAfterSeconds: 15, whisper: true, offlineApiKey: 'offline-redirect-key' },
  });
  const s = useSeededCollector('twilio_redirect', fixture, { twilio: { authToken: TWILIO_TOKEN } });

  it('dials the redirect number when the page phone does not answer in time, and records one redirected call', async () => {
    const number = await shownNumber(s, { url: 'https://shop.test/contact?utm_source=google&utm_medium=cpc&utm_term=emergency+plumber' });
    const call = twilioCall(s, 'CA-redirect', '+33633000001', number);
    const voice = await call.voice();
    const callId = (await s.t.c.calls.findOne({ callRef: 'CA-redirect' }))!._id;
    expect(voice.text).toBe(`${XML}<Response><Dial callerId="+33633000001" action="dial" method="POST" timeout="15"><Number url="whisper?call=${callId}" method="POST">+33123456789</Number></Dial></Response>`);

    const whisper = await call.whisper(callId);
    expect(whisper.text).toBe(`${XML}<Response><Say>Call from Google Ads, keyword emergency plumber</Say></Response>`);

    const redirected = await call.dialEnded('no-answer');
    expect(redirected.text).toBe(`${XML}<Response><Dial callerId="+33633000001" action="dial?leg=redirect" method="POST" timeout="30"><Number url="whisper?call=${callId}" method="POST">+33611000000</Number></Dial></Response>`);
    await call.dialEnded('completed', 42, '?leg=redirect');
    await call.ended(70);
    expect(await dataApiCalls(s).then((all) => all.filter((r) => r.caller === '0633000001'))).toEqual([
      expect.objectContaining({ status: 'SUCCESS', duration: 42, billing_duration: 120, is_redirect: true, source: 'paid:google', keyword: 'emergency plumber' }),
    ]);
  });

  it('redirects a busy line too, and records the redirect leg’s own outcome', async () => {
    const number = await shownNumber(s);
    const call = twilioCall(s, 'CA-redirect-busy', '+33633000002', number);
    await call.voice();
    expect((await call.dialEnded('busy')).text).toContain('+33611000000</Number>');
    await call.dialEnded('no-answer', 0, '?leg=redirect');
    await call.ended(45);
    expect(await recordOf(s, '0633000002')).toMatchObject({ status: 'NORESPONSE', is_redirect: true, duration: 0 });
  });

  it('redirects an offline number by its allow_redirect, and whispers its campaign', async () => {
    const offline = (fields: Record<string, string>) => s.collector.get('/offline-numbers-api', { key: 'offline-redirect-key', ...fields });
    const assigned = await offline({ action: 'assign', phone_number: '0144556677', description: 'leaflet', type: '6', allow_redirect: '1', timetable: '0' });
    expect(assigned.body).toMatchObject({ status: 'success', allow_redirect: '1', timetable: 0 });
    const call = twilioCall(s, 'CA-offline-redirect', '+33633000003', '+33100000001');
    const voice = await call.voice();
    expect(voice.text).toContain('timeout="15"><Number url="whisper?call=');
    const callId = (await s.t.c.calls.findOne({ callRef: 'CA-offline-redirect' }))!._id;
    expect((await call.whisper(callId)).text).toContain('<Say>Call from the leaflet campaign</Say>');
    expect((await call.dialEnded('no-answer')).text).toContain('+33611000000</Number>');

    // Redirect off: a missed call stays missed.
    await offline({ action: 'redirect_setup', tracking_number: '0100000001', allow_redirect: '0' });
    const missed = twilioCall(s, 'CA-offline-missed', '+33633000004', '+33100000001');
    expect((await missed.voice()).text).toContain('timeout="30"');
    expect((await missed.dialEnded('no-answer')).text).toBe(`${XML}<Response/>`);
    await missed.ended(31);
    expect(await recordOf(s, '0633000004')).toMatchObject({ status: 'NORESPONSE', is_redirect: false, source: 'offline' });
  });

  it('rejects a blocked caller with <Reject/> and records the call CALLER_PHONE_BLACKLISTED whatever Twilio reports', async () => {
    await s.t.c.blockedCallers.insertOne({ _id: 'shop.test|0666666666', domainId: 'shop.test', number: '0666666666', addedAt: new Date(), addedBy: 'test' });
    const number = await shownNumber(s);
    const call = twilioCall(s, 'CA-blocked', '+33666666666', number);
    expect((await call.voice()).text).toBe(`${XML}<Response><Reject/></Response>`);
    await twilioPost(s.collector.baseUrl, '/status', { AccountSid: ACCOUNT_SID, CallSid: 'CA-blocked', From: '+33666666666', To: number, CallStatus: 'busy', CallDuration: '0' });
    expect(await recordOf(s, '0666666666')).toMatchObject({ status: 'CALLER_PHONE_BLACKLISTED', phone: '', source: '' });
  });

  it('refuses an unsigned <Dial action> or whisper request', async () => {
    const forged = await twilioPost(s.collector.baseUrl, '/dial', { CallSid: 'CA-redirect', DialCallStatus: 'completed', DialCallDuration: '999' }, 'not-the-token');
    expect(forged.status).toBe(403);
    expect((await twilioPost(s.collector.baseUrl, '/whisper?call=1', { CallSid: 'CA-x' }, 'not-the-token')).status).toBe(403);
    expect(await recordOf(s, '0633000001')).toMatchObject({ duration: 42 });
  });
});
