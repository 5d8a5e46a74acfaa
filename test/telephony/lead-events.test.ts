// A call that becomes a lead is sent to the domain's GA4 as `generate_lead` (issue 23, part 5), once
// per call whatever verdicts follow, with the visitor's own GA4 ids when the page knew them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { commerceFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const USER = { username: 'owner@shop.test', password: 'lead-events-password' };
let t: TestDatabase;
let ga4: Receiver;
let collector: RunningCollector;
beforeAll(async () => {
  ga4 = await startReceiver();
  t = await testDatabase('lead_events');
  await seed(t.c, commerceFixture({ tracking: { users: [USER] } }));
  collector = await startCollector(t.db, { telephonyApiKey: TELEPHONY_KEY, ga4Endpoint: ga4.url('/mp/collect') });
});
afterAll(async () => {
  await collector?.close();
  await t?.close();
  await ga4?.close();
});

async function call(callRef: string, duration: number, view: Record<string, string> = {}) {
  const shown = await collector.post('/ospView', viewParams({ url: 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_term=leaking+tap', ...view }));
  const trackingNumber = shown.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
  return (await reportCall(collector.baseUrl, { callRef, trackingNumber, startDate: new Date(), callerPhone: `06${String(duration).padStart(8, '0')}`, duration })).body.callId as number;
}
const leadEvents = () => ga4.received.map((r) => JSON.parse(r.body)).filter((b) => b.events[0].name === 'generate_lead');
const outboxDrained = () => expect.poll(() => t.c.outbox.countDocuments()).toBe(0);

describe('generate_lead', () => {
  it('is sent once when a call becomes a lead, with the visitor’s GA4 ids, source and keyword', async () => {
    const callId = await call('ga-lead-1', 120, { ga_client_id: '555.777', ga_session_id: '1712340000' });
    const [received] = await ga4.waitFor(1, (r) => r.body.includes('generate_lead'));
    expect(received!.query.get('measurement_id')).toBe('G-TEST123');
    expect(JSON.parse(received!.body)).toEqual({
      client_id: '555.777',
      events: [{ name: 'generate_lead', params: { currency: 'EUR', value: 0, lead_source: 'phone_call', session_id: '1712340000', source: 'paid:google', keyword: 'leaking tap' } }],
    });
    // Not a lead, then a lead again: no second event for the call.
    const owner = await signedInClient(collector.baseUrl, USER.username, USER.password);
    await owner.call('PUT', `/domains/shop.test/calls/${callId}/verdict`, { verdict: 'not-lead' });
    await owner.call('PUT', `/domains/shop.test/calls/${callId}/verdict`, { verdict: 'lead' });
    await outboxDrained();
    expect(leadEvents()).toHaveLength(1);
  });

  it('waits for the call to become a lead: a short call sends nothing until a person says it is one', async () => {
    const callId = await call('ga-lead-2', 4);
    await outboxDrained();
    expect(leadEvents()).toHaveLength(1);
    const owner = await signedInClient(collector.baseUrl, USER.username, USER.password);
    await owner.call('PUT', `/domains/shop.test/calls/${callId}/verdict`, { verdict: 'lead' });
    await ga4.waitFor(2, (r) => r.body.includes('generate_lead'));
    expect(leadEvents()[1]).toMatchObject({ client_id: expect.stringMatching(/^ringtrail\.visit\.\d+$/) });
  });
});
