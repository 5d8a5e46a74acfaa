// A domain's blocklist of callers, by every path: the back end's list and the calls log's action,
// the fixture, /telephony/route, a generic carrier's report, the data API, the reports, callStart
// and the live pushes, and SMS.
import { formatUtcDateTime } from '@ringtrail/shared';
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { CC_KEY, commerceFixture, CUSTOMER_KEY, DATA_KEY, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { reportCall, routeCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { daysAroundNow } from '../helpers/days.ts';

const USER = { username: 'owner@shop.test', password: 'owner-password-1' };

describe('blocked callers', () => {
  const fixture = commerceFixture({ webhookUrl: 'http://127.0.0.1:9/hook', ga4: false, tracking: { users: [USER], exclusive: Array.from({ length: 12 }, (_, i) => `08000001${String(i).padStart(2, '0')}`), settings: { blockedCallers: ['+33 6 66 66 66 66'] } } });
  const s = useSeededCollector('blocked_callers', fixture, { telephonyApiKey: TELEPHONY_KEY });
  const manage = () => signedInClient(s.collector.baseUrl, USER.username, USER.password);

  /** A visitor from a Google ad is shown a number; `caller` calls it, and the call ends answered. */
  async function callFromAdVisit(ref: string, caller: string) {
    const view = await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/contact?gclid=CLICK-1' }));
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    const startDate = new Date(Math.floor(Date.now() / 1000) * 1000);
    const report = await reportCall(s.collector.baseUrl, { callRef: ref, trackingNumber: number, startDate, callerPhone: caller, status: 'SUCCESS' });
    return { number, startDate, callId: report.body.callId as number, visitId: view.body.visitId as number };
  }

  it('loads the fixture’s blocklist, normalized, and lets the back end add and remove callers in any format', async () => {
    const client = await manage();
    expect((await client.get('/domains/shop.test/blocked-callers')).body).toEqual([{ id: expect.any(String), number: '0666666666', addedAt: expect.any(String), addedBy: 'fixture' }]);
    const added = await client.call('POST', '/domains/shop.test/blocked-callers', { number: '+33 (0)7 77 77 77 77' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ number: '0777777777', addedBy: USER.username });
    expect(Date.parse(added.body.addedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await client.call('POST', '/domains/shop.test/blocked-callers', { number: 'spam' })).body.error).toBe('number: "spam" is not a phone number');
    expect((await client.get('/domains/shop.test/blocked-callers')).body.map((e: any) => e.number)).toEqual(['0777777777', '0666666666']);
    expect((await client.call('DELETE', `/domains/shop.test/blocked-callers/${added.body.id}`)).status).toBe(204);
    expect((await client.call('DELETE', '/domains/shop.test/blocked-callers/0777777777')).status).toBe(404);
    expect((await client.get('/domains/shop.test/blocked-callers')).body.map((e: any) => e.number)).toEqual(['0666666666']);
  });

  it('routes a blocked caller nowhere, as blocked; any other caller as usual', async () => {
    const view = await s.collector.post('/ospView', viewParams());
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    expect((await routeCall(s.collector.baseUrl, { tracking_number: number, caller_phone: '+33666666666' })).body).toEqual({
      status: 'OK',
      trackingNumber: number,
      destination: null,
      reason: 'blocked',
      forcedStatus: 'CALLER_PHONE_BLACKLISTED',
      redirect: null,
      whisper: null,
      recording: null,
    });
    expect((await routeCall(s.collector.baseUrl, { tracking_number: number, caller_phone: '0611223344' })).body).toMatchObject({ reason: 'online', destination: '0123456789' });
    expect((await routeCall(s.collector.baseUrl, { tracking_number: number, caller_phone: 'anonymous' })).body).toMatchObject({ reason: 'online' });
    expect((await routeCall(s.collector.baseUrl, { tracking_number: number, caller_phone: 'x' })).status).toBe(400);
  });

  it('records a blocked caller’s call CALLER_PHONE_BLACKLISTED whatever the carrier says, unattributed, counted apart, in no conversion file', async () => {
    const blocked = await callFromAdVisit('pbx-blocked-1', '0666666666');
    const answered = await callFromAdVisit('pbx-ok-1', '0611223344');
    const data = await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: daysAroundNow().from, end_date: daysAroundNow().to, page: 1, limit: 100 });
    const byCaller = new Map(data.body.results.map((r: any) => [r.caller, r]));
    expect(byCaller.get('0666666666')).toMatchObject({ status: 'CALLER_PHONE_BLACKLISTED', phone: '', source: '' });
    expect(byCaller.get('0666666666')).not.toHaveProperty('visit_id');
    expect(byCaller.get('0611223344')).toMatchObject({ status: 'SUCCESS', visit_id: String(answered.visitId), gclid: 'CLICK-1' });

    const client = await manage();
    const overview = (await client.get(`/domains/shop.test/reports/overview?from=${daysAroundNow().from}&to=${daysAroundNow().to}`)).body;
    expect(overview.totals).toMatchObject({ calls: 1, answered: 1, blocked: 1 });
    expect(overview.sources.find((r: any) => r.source === 'paid').calls).toBe(1);
    const log = (await client.get(`/domains/shop.test/reports/calls?from=${daysAroundNow().from}&to=${daysAroundNow().to}&status=CALLER_PHONE_BLACKLISTED`)).body.calls;
    expect(log).toEqual([expect.objectContaining({ callId: blocked.callId, status: 'CALLER_PHONE_BLACKLISTED', callerBlocked: true })]);
    const ads = (await client.get(`/domains/shop.test/reports/google-ads.csv?from=${daysAroundNow().from}&to=${daysAroundNow().to}`)).text;
    expect(ads.match(/CLICK-1,RingTrail lead/g)).toHaveLength(1); // the answered call of 65 s: a lead
  });

  it('never opens live pushes for a blocked caller’s call, though callStart shows it', async () => {
    const blocked = await callFromAdVisit('pbx-blocked-2', '0666666666');
    const start = await s.collector.post('/agent-api/callStart', { apiKey: CC_KEY, destinationPhone: blocked.number, startDate: formatUtcDateTime(blocked.startDate), callerPhone: '0666666666' });
    expect(start.body.results).toEqual([expect.objectContaining({ call: expect.objectContaining({ id: blocked.callId, status: 'CALLER_PHONE_BLACKLISTED' }) })]);
    const cart = (call: { callId: number; visitId: number }, id: string) => s.collector.post('/api/customer-cart', { key: CUSTOMER_KEY, id, currency: 'EUR', visit_id: call.visitId, call_id: call.callId, is_logged_in: 0, 'products[0][id]': 'A', 'products[0][name]': 'A', 'products[0][quantity]': 1, 'products[0][price]': '10' });
    expect((await cart(blocked, 'cart-blocked')).body.status).toBe('success');

    // The same steps for an ordinary caller push the cart: once that push is queued (or already
    // tried), the blocked call's would have been too.
    const ordinary = await callFromAdVisit('pbx-ok-2', '0611223355');
    await s.collector.post('/agent-api/callStart', { apiKey: CC_KEY, destinationPhone: ordinary.number, startDate: formatUtcDateTime(ordinary.startDate), callerPhone: '0611223355' });
    expect((await cart(ordinary, 'cart-ordinary')).body.status).toBe('success');
    const pushesOf = async (callId: number) => (await s.t.c.outbox.countDocuments({ stream: `call:${callId}` })) + (await s.t.c.deliveryLog.countDocuments({ stream: `call:${callId}` }));
    await expect.poll(() => pushesOf(ordinary.callId)).toBeGreaterThan(0);
    expect(await pushesOf(blocked.callId)).toBe(0);
    expect(await s.t.c.liveCalls.countDocuments({ _id: blocked.callId })).toBe(0);
  });

  it('keeps an SMS from a blocked caller, flagged, and leaves it out of the data API', async () => {
    const sms = (ref: string, caller: string) =>
      fetch(`${s.collector.baseUrl}/telephony/sms`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ smsRef: ref, trackingNumber: '0800000100', callerPhone: caller, sentDate: formatUtcDateTime(new Date()), message: 'hello' }),
      });
    expect((await sms('sms-blocked', '0666666666')).status).toBe(200);
    expect((await sms('sms-ok', '0611223344')).status).toBe(200);
    expect(await s.t.c.sms.findOne({ smsRef: 'sms-blocked' })).toMatchObject({ caller: '0666666666', blocked: true });
    const data = await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'sms', start_date: daysAroundNow().from, end_date: daysAroundNow().to, page: 1, limit: 100 });
    expect(data.body.total_results).toBe(1);
    expect(data.body.results.map((r: any) => r.caller_phone)).toEqual(['0611223344']);
  });

  it('blocks and unblocks a call’s caller from the calls log, for the calls that follow', async () => {
    const client = await manage();
    const first = await callFromAdVisit('pbx-later-1', '0688888888');
    const blocked = await client.call('POST', `/domains/shop.test/calls/${first.callId}/block-caller`);
    expect(blocked.body).toMatchObject({ number: '0688888888', addedBy: USER.username });
    const second = await callFromAdVisit('pbx-later-2', '0688888888');
    const statusOf = async (callId: number) => (await client.get(`/domains/shop.test/reports/calls?from=${daysAroundNow().from}&to=${daysAroundNow().to}`)).body.calls.find((c: any) => c.callId === callId);
    expect(await statusOf(first.callId)).toMatchObject({ status: 'SUCCESS', callerBlocked: true }); // decided when it came
    expect(await statusOf(second.callId)).toMatchObject({ status: 'CALLER_PHONE_BLACKLISTED', callerBlocked: true });
    expect((await client.call('DELETE', `/domains/shop.test/calls/${first.callId}/block-caller`)).status).toBe(204);
    const third = await callFromAdVisit('pbx-later-3', '0688888888');
    expect(await statusOf(third.callId)).toMatchObject({ status: 'SUCCESS', callerBlocked: false });
    expect((await client.call('POST', '/domains/shop.test/calls/999999/block-caller')).status).toBe(404);
  });
});
