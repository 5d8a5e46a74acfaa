// Leads (issue 23, part 2): a domain's lead rule decides once a call's outcome is known, a later
// carrier report applies it again, and a person's verdict (lead, not a lead, spam) wins over it until
// undone; spam blocks the caller. Shown in the data API, the calls log, the overview (by source and
// keyword, and the lead rate) and the Google Ads file, which carries leads instead of every answered call.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { commerceFixture, DATA_KEY, viewParams } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { leadOf as ruleSays } from '../../collector/src/telephony/leads.ts';

const USER = { username: 'owner@shop.test', password: 'leads-password-1' };
const fixture = commerceFixture({ tracking: { users: [USER], exclusive: Array.from({ length: 40 }, (_, i) => `08000002${String(i).padStart(2, '0')}`) } });
const s = useSeededCollector('leads', fixture, { telephonyApiKey: TELEPHONY_KEY });

let refs = 0;
interface Call {
  callId: number;
  callRef: string;
  number: string;
  startDate: Date;
}

/** A visitor from `url` is shown a number and calls it from `caller`; the carrier reports `status` and `duration`. */
async function call(caller: string, fields: { status?: string; duration?: number; url?: string } = {}): Promise<Call> {
  const view = await s.collector.post('/ospView', viewParams({ url: fields.url ?? 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_term=leak+repair&gclid=GCLID' }));
  const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
  const callRef = `lead-${++refs}`;
  const startDate = new Date();
  const { body } = await reportCall(s.collector.baseUrl, { callRef, trackingNumber: number, startDate, callerPhone: caller, status: fields.status ?? 'SUCCESS', duration: fields.duration ?? 60 });
  return { callId: body.callId, callRef, number, startDate };
}

const leadOf = async (c: Call) => (await s.t.c.calls.findOne({ _id: c.callId }))!.lead;
const owner = (): Promise<ManageClient> => signedInClient(s.collector.baseUrl, USER.username, USER.password);
const verdict = async (client: ManageClient, c: Call, value: string | null) => client.call('PUT', `/domains/shop.test/calls/${c.callId}/verdict`, { verdict: value });

describe('the lead rule', () => {
  it('makes an answered call of 30 s or more a lead by default, and nothing else', async () => {
    expect(await leadOf(await call('0680000001', { duration: 45 }))).toBe(true);
    expect(await leadOf(await call('0680000002', { duration: 3 }))).toBe(false);
    expect(await leadOf(await call('0680000003', { status: 'NORESPONSE', duration: 0 }))).toBe(false);
    expect(ruleSays({ status: null, duration: 0, firstCall: true })).toBeNull(); // still ringing (a Twilio call before its outcome)
  });

  it('is a setting of the domain, applied again by a later report of the call', async () => {
    const client = await owner();
    const short = await call('0680000005', { duration: 12 });
    expect(await leadOf(short)).toBe(false);
    expect((await client.call('PATCH', '/domains/shop.test', { leadRule: { minDuration: 10, answeredOnly: true, firstTimeOnly: true } })).body.leadRule).toEqual({ minDuration: 10, answeredOnly: true, firstTimeOnly: true });
    await reportCall(s.collector.baseUrl, { callRef: short.callRef, trackingNumber: short.number, startDate: short.startDate, callerPhone: '0680000005', duration: 12 });
    expect(await leadOf(short)).toBe(true);
    // First-time only: the same caller again is no lead, however long.
    expect(await leadOf(await call('0680000005', { duration: 600 }))).toBe(false);
    expect((await client.call('PATCH', '/domains/shop.test', { leadRule: { minDuration: -1 } })).status).toBe(400);
    await client.call('PATCH', '/domains/shop.test', { leadRule: { minDuration: 30, answeredOnly: true, firstTimeOnly: false } });
  });
});

describe('a person’s verdict', () => {
  it('wins over the rule, is kept with who and when, and can be undone', async () => {
    const client = await owner();
    const hangUp = await call('0681000001', { duration: 3 });
    const answer = await verdict(client, hangUp, 'lead');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ callId: hangUp.callId, lead: true, verdict: 'lead' });
    expect((await s.t.c.calls.findOne({ _id: hangUp.callId }))!.verdict).toMatchObject({ value: 'lead', by: USER.username, at: expect.any(Date) });
    // A later carrier report does not undo a person's word.
    await reportCall(s.collector.baseUrl, { callRef: hangUp.callRef, trackingNumber: hangUp.number, startDate: hangUp.startDate, callerPhone: '0681000001', duration: 3 });
    expect(await leadOf(hangUp)).toBe(true);
    const { from, to } = daysAroundNow();
    const record = (await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 100, tracking_phone: hangUp.number })).body.results[0];
    expect(record).toMatchObject({ duration: 3, lead: true, call_id: hangUp.callId, verdict: 'lead' });
    // Not a lead: `not_lead` in the data API and the CSV, as the spec writes its words.
    await verdict(client, hangUp, 'not-lead');
    const recordNow = async () => (await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 100, tracking_phone: hangUp.number })).body.results[0];
    expect(await recordNow()).toMatchObject({ call_id: hangUp.callId, lead: false, verdict: 'not_lead' });
    const csv = (await client.get(`/domains/shop.test/reports/calls.csv?from=${from}&to=${to}`)).text.split('\r\n');
    const column = csv[0]!.split(',').indexOf('verdict');
    expect(csv.find((line) => line.startsWith(`${hangUp.callId},`))!.split(',')[column]).toBe('not_lead');
    expect((await verdict(client, hangUp, null)).body).toMatchObject({ lead: false, verdict: null });
    expect(await recordNow()).toMatchObject({ call_id: hangUp.callId, verdict: null });
  });

  it('marks spam, which blocks the caller, and undoing it lets the caller through again', async () => {
    const client = await owner();
    const spam = await call('0681000002', { duration: 120 });
    expect(await leadOf(spam)).toBe(true);
    expect((await verdict(client, spam, 'spam')).body).toMatchObject({ lead: false, verdict: 'spam' });
    const blocked = async () => (await client.get('/domains/shop.test/blocked-callers')).body.map((e: { number: string }) => e.number);
    expect(await blocked()).toContain('0681000002');
    await verdict(client, spam, null);
    expect(await blocked()).not.toContain('0681000002');
    expect(await leadOf(spam)).toBe(true);
  });

  it('refuses an unknown verdict or call with the back end’s error', async () => {
    const client = await owner();
    const some = await call('0681000003');
    expect(await verdict(client, some, 'maybe')).toMatchObject({ status: 400, body: { error: 'verdict: must be one of lead, not-lead, spam, or null to undo' } });
    expect((await client.call('PUT', '/domains/shop.test/calls/999999/verdict', { verdict: 'lead' })).status).toBe(404);
  });
});

describe('leads in the reports', () => {
  it('counts leads by source and keyword with the lead rate, filters the log, and sends only leads to Google Ads', async () => {
    const client = await owner();
    const { from, to } = daysAroundNow();
    const long = await call('0682000001', { duration: 200, url: 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_term=burst+pipe&gclid=LEADGCLID' });
    const short = await call('0682000002', { duration: 2, url: 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_term=burst+pipe&gclid=NOLEADGCLID' });
    const judged = await call('0682000003', { duration: 2, url: 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_term=burst+pipe&gclid=JUDGEDGCLID' });
    await verdict(client, judged, 'lead');

    const overview = (await client.get(`/domains/shop.test/reports/overview?from=${from}&to=${to}`)).body;
    const leads = await s.t.c.calls.countDocuments({ domainId: 'shop.test', lead: true });
    expect(overview.totals.leads).toBe(leads);
    expect(overview.totals.leadRate).toBe(Math.round((leads / overview.totals.visits) * 10_000) / 10_000);
    expect(overview.keywords.find((r: { keyword: string }) => r.keyword === 'burst pipe')).toMatchObject({ calls: 3, leads: 2, visits: 3 });
    expect(overview.sources.find((r: { source: string }) => r.source === 'paid').leads).toBe(await s.t.c.calls.countDocuments({ lead: true, source: /^paid/ }));

    const log = (await client.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}&lead=true`)).body.calls.map((c: { callId: number }) => c.callId);
    expect(log).toEqual(expect.arrayContaining([long.callId, judged.callId]));
    expect(log).not.toContain(short.callId);

    const ads = (await client.get(`/domains/shop.test/reports/google-ads.csv?from=${from}&to=${to}`)).text.split('\r\n');
    expect(ads.filter((line) => line.includes('GCLID')).map((line) => line.split(',').slice(0, 2).join())).toEqual(expect.arrayContaining(['LEADGCLID,RingTrail lead', 'JUDGEDGCLID,RingTrail lead']));
    expect(ads.join('\n')).not.toContain('NOLEADGCLID');
    expect(ads.join('\n')).not.toContain('RingTrail call');
  });
});
