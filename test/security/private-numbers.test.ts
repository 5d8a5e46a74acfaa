// Caller privacy covers every number a role should not see (issue 79), tried as the attack was: with
// privacy `partial`, a call placed to a person (click-to-call) shows the person's number masked as a
// caller's in the calls log, the call page, calls.csv and the data API; and who answered a flow's
// call is named to everyone, their phone shown only to themselves and to owners.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { DATA_KEY, trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY, twilioPost } from '../helpers/telephony.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const TWILIO = { sid: 'AC79797979797979797979797979797980', token: 'token-of-the-private-numbers-account' };
const OWNER = { username: 'owner@shop.test', password: 'private numbers owner password' };
const ANALYST = { username: 'analyst@shop.test', password: 'private numbers analyst password', role: 'analyst', domains: ['shop.test'] };
const ADA = { username: 'ada@shop.test', password: 'private numbers ada password', role: 'agent', domains: ['shop.test'], phone: '0611000001' };
const BEN = { username: 'ben@shop.test', password: 'private numbers ben password', role: 'agent', domains: ['shop.test'], phone: '0611000002' };
const TRACKING = '+33800000001';
const LEAD = '+33612345678';
const TEAM = { name: 'Team', start: 'team', assignedTo: { numbers: ['0800000002'] }, steps: { team: { kind: 'ring', strategy: 'simultaneous', targets: [{ member: ADA.username }, { member: BEN.username }], noAnswer: 'bye' }, bye: { kind: 'hangup' } } };

let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(TWILIO.sid, TWILIO.token, { numbers: [standInNumber(TRACKING)] })]);
});
afterAll(() => api.close());
const s = useSeededCollector('private_numbers', trackingFixture({ callerPrivacy: 'partial', users: [OWNER, ANALYST, ADA, BEN] as never, settings: { callFlows: [TEAM] } }), {
  secretsKey: randomBytes(32),
  telephonyApiKey: TELEPHONY_KEY,
  get twilioApiBase() {
    return api.base;
  },
});

const twilioAt = (url: string, fields: Record<string, string>) => {
  const at = new URL(url, 'http://collector.test/telephony/twilio/');
  return twilioPost(s.collector.baseUrl, `${at.pathname.replace('/telephony/twilio', '')}${at.search}`, { AccountSid: TWILIO.sid, ...fields }, TWILIO.token);
};
// The person's number in any form it might be written: whole digits, spaced pairs, E.164.
const showsLead = (text: string) => /12\s?34\s?56\s?78/.test(text);

describe('private numbers', () => {
  it("masks a call placed to a person as a caller is masked: the calls log, the call page, calls.csv and the data API", async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: TWILIO.sid, authToken: TWILIO.token })).status).toBe(200);
    await twilioPost(s.collector.baseUrl, '/sms', { AccountSid: TWILIO.sid, MessageSid: 'SM-private-1', From: LEAD, To: TRACKING, Body: 'Call me', NumSegments: '1' }, TWILIO.token);
    const personId = (await s.t.c.conversations.findOne({ phone: '0612345678' }))!.personId!;
    const ada = await signedInClient(s.collector.baseUrl, ADA.username, ADA.password);
    const placed = await ada.call('POST', `/domains/shop.test/people/${personId}/call`, {});
    expect(placed.status).toBe(201);
    await twilioAt(api.calls.at(-1)!.statusCallback!, { CallSid: api.calls.at(-1)!.sid, CallStatus: 'completed', CallDuration: '0' });

    const analyst = await signedInClient(s.collector.baseUrl, ANALYST.username, ANALYST.password);
    const { from, to } = daysAroundNow();
    const log = await analyst.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}&direction=outbound`);
    expect(log.body.calls.find((c: { callId: number }) => c.callId === placed.body.callId)).toMatchObject({ direction: 'outbound', caller: '061234XXXX', destination: '061234XXXX' });
    expect(showsLead(log.text)).toBe(false);
    const page = await analyst.get(`/domains/shop.test/calls/${placed.body.callId}`);
    expect(page.body.call).toMatchObject({ caller: '061234XXXX', destination: '061234XXXX' });
    expect(showsLead(page.text)).toBe(false);
    const csv = await analyst.get(`/domains/shop.test/reports/calls.csv?from=${from}&to=${to}&direction=outbound`);
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('061234XXXX');
    expect(showsLead(csv.text)).toBe(false);
    const data = await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 50, direction: 'outbound' });
    expect(data.body).toMatchObject({ status: 'OK', total_results: 1, results: [{ call_id: placed.body.callId, caller: '061234XXXX', phone: '061234XXXX' }] });
    expect(showsLead(JSON.stringify(data.body))).toBe(false);
  });

  it("names who answered to everyone, and shows their phone only to themselves and to owners", async () => {
    const flow = async (fields: Record<string, unknown>) => (await (await fetch(`${s.collector.baseUrl}/telephony/flow`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(fields) })).json()) as { callId: number; step: string };
    const call = { callRef: 'pbx-private-1', trackingNumber: '0800000002', callerPhone: '0622000001' };
    const first = await flow(call);
    await flow({ ...call, step: first.step, input: 'answered', answeredBy: BEN.phone });
    const started = (await s.t.c.calls.findOne({ callRef: call.callRef }))!.startedAt;
    expect((await reportCall(s.collector.baseUrl, { callRef: call.callRef, trackingNumber: '0800000002', callerPhone: '0622000001', startDate: started, status: 'SUCCESS', duration: 30 })).status).toBe(200);

    const answeredAs = async (who: { username: string; password: string }) => {
      const reader = await signedInClient(s.collector.baseUrl, who.username, who.password);
      const page = await reader.get(`/domains/shop.test/calls/${first.callId}`);
      expect(page.status).toBe(200);
      return { answeredBy: page.body.flow.answeredBy, shown: page.text.includes('0611000002') || page.text.includes('06 11 00 00 02') };
    };
    expect(await answeredAs(ANALYST)).toEqual({ answeredBy: expect.objectContaining({ member: BEN.username, name: expect.any(String), number: null }), shown: false });
    expect(await answeredAs(ADA)).toEqual({ answeredBy: expect.objectContaining({ member: BEN.username, number: null }), shown: false });
    expect(await answeredAs(BEN)).toMatchObject({ answeredBy: { member: BEN.username, number: '0611000002' }, shown: true });
    expect(await answeredAs(OWNER)).toMatchObject({ answeredBy: { member: BEN.username, number: '0611000002' }, shown: true });
    // The calls log names them, with no phone.
    const analyst = await signedInClient(s.collector.baseUrl, ANALYST.username, ANALYST.password);
    const { from, to } = daysAroundNow();
    const row = (await analyst.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}`)).body.calls.find((c: { callId: number }) => c.callId === first.callId);
    expect(row.answeredBy).toBe(BEN.username);
  });
});
