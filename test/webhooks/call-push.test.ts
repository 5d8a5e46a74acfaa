// The `call` push (issue 23, part 6): opt-in by the account's webhookEvents; sent signed when a
// call's outcome is known and again when its lead verdict changes, in order per call; an account
// that did not ask gets none.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { commerceFixture, viewParams, WEBHOOK_SECRET } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { startReceiver, verifiedPush, type Receiver } from '../helpers/receiver.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const USER = { username: 'owner@shop.test', password: 'call-push-password' };
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

function fixture(events: string[]) {
  const f = commerceFixture({ ga4: false, webhookUrl: 'https://hooks.example/ringtrail', tracking: { users: [USER] } });
  return { accounts: [{ ...f.accounts[0]!, webhookEvents: events }] };
}
const s = useSeededCollector('call_push', fixture(['call']), { telephonyApiKey: TELEPHONY_KEY, delivery: { publicOnly: false } });

/** `call.duration` -> `number`, for every field of a push, nested ones included. */
function fieldTypes(value: unknown, path = ''): Record<string, string> {
  if (value === null || typeof value !== 'object') return { [path]: value === null ? 'null' : typeof value };
  return Object.assign({}, ...Object.entries(value).map(([key, inner]) => fieldTypes(inner, path ? `${path}.${key}` : key)));
}

const callPushes = () => receiver.received.map((r) => verifiedPush(r, WEBHOOK_SECRET)).filter((p) => p.type === 'call');

describe('the call push', () => {
  it('is sent signed when the outcome is known, and again when a verdict changes the lead, in order', async () => {
    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    expect((await owner.call('PUT', '/account/webhook', { url: receiver.url() })).body).toEqual({ secret: null }); // the fixture's secret stays
    const view = await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/?gclid=PUSH1' }));
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    const startDate = new Date();
    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'push-1', trackingNumber: number, startDate, callerPhone: '0612121212', duration: 90 });
    await receiver.waitFor(1, (r) => verifiedPush(r, WEBHOOK_SECRET).type === 'call');
    await owner.call('PUT', `/domains/shop.test/calls/${body.callId}/verdict`, { verdict: 'not-lead' });
    await receiver.waitFor(2, (r) => verifiedPush(r, WEBHOOK_SECRET).type === 'call');
    const [first, second] = callPushes();
    expect(first).toMatchObject({ callId: body.callId, type: 'call', view: null, cart: null, order: null, call: { callId: body.callId, status: 'SUCCESS', duration: 90, gclid: 'PUSH1', lead: true, first_call: true } });
    expect(second).toMatchObject({ callId: body.callId, call: { lead: false, call_id: body.callId, verdict: 'not_lead' } });
    // The example of docs/webhook-pushes.md: each of its fields is in the real push, of the same type.
    const page = readFileSync(new URL('../../docs/webhook-pushes.md', import.meta.url), 'utf8');
    const example = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(page)![1]!);
    expect(fieldTypes(example)).toEqual(Object.fromEntries(Object.keys(fieldTypes(example)).map((path) => [path, fieldTypes(second)[path]])));
    // A later report that changes neither the outcome's arrival nor the lead queues nothing (a push
    // is in the outbox before the report is answered).
    await reportCall(s.collector.baseUrl, { callRef: 'push-1', trackingNumber: number, startDate, callerPhone: '0612121212', duration: 95 });
    expect(await s.t.c.outbox.countDocuments({ label: 'call' })).toBe(0);
    expect(callPushes()).toHaveLength(2);
  });

  it('is set in the back end and the management API, and off by default', async () => {
    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    expect((await owner.get('/account')).body.webhookEvents).toEqual(['call']);
    expect((await owner.call('PUT', '/account/webhook/events', { events: [] })).body).toEqual({ webhookEvents: [] });
    const before = callPushes().length;
    const view = await s.collector.post('/ospView', viewParams());
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    await reportCall(s.collector.baseUrl, { callRef: 'push-2', trackingNumber: number, startDate: new Date(), callerPhone: '0612121213', duration: 90 });
    expect(await s.t.c.outbox.countDocuments({ label: 'call' })).toBe(0);
    expect(callPushes()).toHaveLength(before);
    expect((await owner.call('PUT', '/account/webhook/events', { events: ['sms'] })).status).toBe(400);
  });
});
