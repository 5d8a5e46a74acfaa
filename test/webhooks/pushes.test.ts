// Live pushes to the call center's webhook, over real HTTP to a receiver on loopback: the whole
// story, a collector restarted while the receiver is down, two collectors on one database, the
// private-address guard, retries and giving up.
import { formatUtcDateTime } from '@ringtrail/shared';
import { MongoClient } from 'mongodb';
import type { OutboxDoc } from '../../collector/src/webhooks/documents.ts';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { CC_KEY, commerceFixture, CUSTOMER_KEY, viewParams, WEBHOOK_SECRET } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { startReceiver, verifiedPush, type Receiver } from '../helpers/receiver.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const FAST = { pollMs: 50, firstRetryMs: 100, maxRetryMs: 400, publicOnly: false };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `ga4`: the domain sends GA4 events (a sale's purchase, a lead's generate_lead); off, only the pushes travel. */
async function setUp(label: string, webhookUrl: string, { ga4 = false } = {}): Promise<TestDatabase> {
  const t = await testDatabase(label);
  cleanups.push(() => t.close());
  await seed(t.c, commerceFixture({ webhookUrl, ga4 }));
  return t;
}

async function collectorOn(t: TestDatabase, opts: Parameters<typeof startCollector>[1] = {}): Promise<RunningCollector> {
  const collector = await startCollector(t.db, { telephonyApiKey: TELEPHONY_KEY, delivery: FAST, ...opts });
  cleanups.push(() => collector.close());
  return collector;
}

/** A visitor who calls the number shown to them; the agent's screen asks callStart. */
async function liveCall(collector: RunningCollector, ref: string): Promise<{ visitId: number; callId: number; number: string }> {
  const view = await collector.post('/ospView', viewParams({ referer_url: 'https://www.google.com/search?q=boiler' }));
  const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
  const startDate = new Date(Math.ceil(Date.now() / 1000) * 1000);
  const { callId } = (await reportCall(collector.baseUrl, { callRef: ref, trackingNumber: number, startDate })).body;
  const start = await collector.post('/agent-api/callStart', { apiKey: CC_KEY, destinationPhone: number, startDate: formatUtcDateTime(startDate), agent: 'alice@shop.test' });
  expect(start.body.resultsNb).toBe(1);
  return { visitId: view.body.visitId, callId, number };
}

function cartFields(visitId: number, quantity: number, id = `cart-${visitId}`): Record<string, unknown> {
  return {
    key: CUSTOMER_KEY,
    id,
    currency: 'EUR',
    visit_id: visitId,
    is_logged_in: 1,
    'products[0][id]': 'SKU-1',
    'products[0][name]': 'Boiler',
    'products[0][quantity]': quantity,
    'products[0][price]': '100',
    'products[0][details][color]': 'red',
  };
}

describe('webhook pushes', () => {
  it('pushes a live call’s new view, cart and order changes in order, signed, and the sale’s analytics event once', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const t = await setUp('push_story', receiver.url('/hook'), { ga4: true });
    const collector = await collectorOn(t, { ga4Endpoint: receiver.url('/mp/collect') });
    const { visitId, callId, number } = await liveCall(collector, 'story-1');

    await collector.post('/ospView', viewParams({ visit_id: visitId, url: 'https://shop.test/boilers', page_title: 'Boilers', direct_display: false }));
    await collector.post('/api/customer-cart', cartFields(visitId, 2));
    const order = { key: CUSTOMER_KEY, id: 'order-1', cart_id: `cart-${visitId}`, visit_id: visitId, call_id: callId, products: JSON.stringify([{ id: 'SKU-1', name: 'Boiler', quantity: 2, cost_per_unit: 100 }]) };
    await collector.post('/api/customer-order', { ...order, status: 'pending' });
    await collector.post('/api/customer-order', { ...order, status: 'paid' });

    const pushes = (await receiver.waitFor(4, (r) => r.path === '/hook')).map((r) => verifiedPush(r, WEBHOOK_SECRET));
    expect(pushes.map((p) => p.type)).toEqual(['view', 'cart', 'order', 'order']);
    expect(pushes.every((p) => p.callId === callId)).toBe(true);
    expect(pushes[0]).toEqual({ callId, type: 'view', view: { id: expect.any(Number), pageTitle: 'Boilers', url: 'https://shop.test/boilers', createdAt: expect.any(String) }, cart: null, order: null });
    expect(pushes[1].view).toBeNull();
    expect(pushes[1].order).toBeNull();
    expect(pushes[1].cart).toMatchObject({ externalId: `cart-${visitId}`, isLoggedIn: true, currency: 'EUR', status: 1, totalCost: 200, productsNb: 1, products: [{ id: 1, name: 'Boiler', quantity: 2, costPerUnit: 100, externalId: 'SKU-1', details: { color: 'red' } }] });
    expect(pushes[3].order).toMatchObject({ externalId: 'order-1', agent: 'alice@shop.test', status: 'paid', isSale: true, totalCost: 200, cartId: expect.any(Number), externalCartId: `cart-${visitId}`, currency: 'EUR', source: 'organic:www.google.com' });
    const headers = receiver.received.find((r) => r.path === '/hook')!.headers;
    expect(headers['webhook-id']).toMatch(/^msg_/);
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');

    await receiver.waitFor(1, (r) => r.path === '/mp/collect');
    // The call ends (its outcome is reported): later changes are no longer pushed.
    const call = await t.c.calls.findOne({ _id: callId });
    await reportCall(collector.baseUrl, { callRef: 'story-1', trackingNumber: number, startDate: call!.startedAt, duration: 300 });
    expect(await t.c.liveCalls.countDocuments()).toBe(0); // every page view reads it: only live calls stay
    await collector.post('/api/customer-cart', cartFields(visitId, 5));
    await expect.poll(() => t.c.outbox.countDocuments()).toBe(0); // a push of that cart would be queued, or sent, by now
    expect(receiver.received.filter((r) => r.path === '/hook')).toHaveLength(4);
    const analytics = receiver.received.filter((r) => r.path === '/mp/collect').map((r) => JSON.parse(r.body).events[0].name);
    expect(analytics.sort()).toEqual(['generate_lead', 'purchase']); // the call became a lead; the sale: one event each

    const log = await collector.post('/agent-api/webhookDeliveries', { apiKey: CC_KEY, callId });
    expect(log.body.resultsNb).toBe(4);
    expect(log.body.results.map((d: any) => [d.type, d.outcome, d.httpStatus])).toEqual([
      ['order', 'delivered', 204],
      ['order', 'delivered', 204],
      ['cart', 'delivered', 204],
      ['view', 'delivered', 204],
    ]);
  });

  it('sends a signed test push from the back end, logged as test', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const t = await testDatabase('push_test');
    cleanups.push(() => t.close());
    const owner = { username: 'owner@shop.test', password: 'owner-password-1' };
    await seed(t.c, commerceFixture({ webhookUrl: receiver.url('/hook'), tracking: { users: [owner] } }));
    const collector = await collectorOn(t);
    const client = await signedInClient(collector.baseUrl, owner.username, owner.password);
    const queued = await client.call('POST', '/account/webhook/test');
    expect(queued.status).toBe(202);
    const [push] = await receiver.waitFor(1, (r) => r.path === '/hook');
    expect(verifiedPush(push!, WEBHOOK_SECRET)).toEqual({ callId: 0, type: 'test', view: null, cart: null, order: null });
    await expect.poll(async () => (await client.get('/account/deliveries')).body.map((d: any) => [d.type, d.outcome])).toEqual([['test', 'delivered']]);

    await client.call('PUT', '/account/webhook', { url: null });
    expect(await client.call('POST', '/account/webhook/test')).toMatchObject({ status: 409, body: { error: 'The account has no webhook URL' } });
  });

  it('keeps what a collector accepted while the receiver was down, and delivers it all once after a restart', async () => {
    const receiver = await startReceiver();
    const url = receiver.url('/hook');
    const port = Number(new URL(url).port);
    await receiver.close(); // down: connections are refused
    const t = await setUp('push_restart', url);
    const first = await collectorOn(t);
    const { visitId, callId } = await liveCall(first, 'restart-1');
    for (const quantity of [1, 2, 3]) await first.post('/api/customer-cart', cartFields(visitId, quantity));
    await expect.poll(() => t.c.deliveryLog.countDocuments({ outcome: 'retrying' })).toBeGreaterThan(0); // a failed attempt
    await first.close();
    expect(await t.c.outbox.countDocuments()).toBe(3);

    const back = await startReceiver(port);
    cleanups.push(() => back.close());
    await collectorOn(t); // the restarted collector
    const pushes = (await back.waitFor(3)).map((r) => verifiedPush(r, WEBHOOK_SECRET));
    expect(pushes.map((p) => [p.callId, p.cart.products[0].quantity])).toEqual([
      [callId, 1],
      [callId, 2],
      [callId, 3],
    ]);
    await expect.poll(() => t.c.outbox.countDocuments()).toBe(0);
    expect(back.received).toHaveLength(3);
  });

  it('delivers each event once, in order per call, with two collectors on one database', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const t = await setUp('push_two', receiver.url('/hook'));
    const otherClient = await new MongoClient(inject('mongodbUri')).connect();
    cleanups.push(() => otherClient.close());
    const a = await collectorOn(t);
    const b = await startCollector(otherClient.db(t.db.databaseName), { telephonyApiKey: TELEPHONY_KEY, delivery: FAST });
    cleanups.push(() => b.close());

    const calls = [await liveCall(a, 'two-1'), await liveCall(b, 'two-2'), await liveCall(a, 'two-3')];
    const CHANGES = 8;
    await Promise.all(
      calls.map(async ({ visitId }) => {
        for (let q = 1; q <= CHANGES; q++) await (q % 2 ? a : b).post('/api/customer-cart', cartFields(visitId, q));
      }),
    );
    const received = await receiver.waitFor(calls.length * CHANGES);
    await expect.poll(() => t.c.outbox.countDocuments()).toBe(0); // a duplicate would have been sent by now
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(calls.length * CHANGES);
    expect(new Set(ids).size).toBe(ids.length);
    const pushes = received.map((r) => verifiedPush(r, WEBHOOK_SECRET));
    for (const { callId } of calls) {
      expect(pushes.filter((p) => p.callId === callId).map((p) => p.cart.products[0].quantity)).toEqual(Array.from({ length: CHANGES }, (_, i) => i + 1));
    }
  });

  it('retries a host that does not resolve without holding back the pushes of other calls', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const t = await setUp('push_unresolved', receiver.url('/hook'));
    // What an account whose receiver's name stopped resolving leaves behind: 1,100 pushes of one
    // call, older than anything else, and twenty other calls with one each.
    const stuck = (stream: string, i: number): OutboxDoc => ({
      _id: `msg_stuck_${stream}_${i}`, accountId: 'Test account', stream, kind: 'webhook', label: 'cart', url: 'http://receiver.invalid/hook', contentType: 'application/x-www-form-urlencoded',
      body: 'realtimeData=%7B%7D', signed: false, createdAt: new Date(), enqueuedAt: i, attempts: 0, nextAttemptAt: new Date(0), claimedBy: null, claimedUntil: new Date(0),
    });
    await t.c.outbox.insertMany([...Array.from({ length: 1100 }, (_, i) => stuck('call:900001', i)), ...Array.from({ length: 20 }, (_, i) => stuck(`call:${900100 + i}`, 2000 + i))]);
    const collector = await collectorOn(t);
    const { visitId, callId } = await liveCall(collector, 'unresolved-1');
    await collector.post('/api/customer-cart', cartFields(visitId, 1));
    const [push] = await receiver.waitFor(1);
    expect(verifiedPush(push!, WEBHOOK_SECRET)).toMatchObject({ callId, type: 'cart' });
    // The host that does not resolve is retried, not given up.
    await expect.poll(() => t.c.deliveryLog.countDocuments({ messageId: 'msg_stuck_call:900001_0', outcome: 'retrying', error: { $ne: null } })).toBeGreaterThan(0);
    expect(await t.c.outbox.countDocuments({ stream: 'call:900001' })).toBe(1100);
  });

  it('refuses private webhook addresses unless allowed, and says so in the delivery log', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const t = await setUp('push_private', receiver.url('/hook'));
    const collector = await collectorOn(t, { delivery: { ...FAST, publicOnly: true } });
    const { visitId } = await liveCall(collector, 'private-1');
    await collector.post('/api/customer-cart', cartFields(visitId, 1));
    await expect.poll(() => t.c.deliveryLog.countDocuments()).toBe(1);
    const log = await collector.post('/agent-api/webhookDeliveries', { apiKey: CC_KEY });
    expect(log.body.results[0]).toMatchObject({ type: 'cart', outcome: 'abandoned', httpStatus: null, error: 'webhook address 127.0.0.1 is private' });
    expect(receiver.received).toHaveLength(0);
  });

  it('retries a failing receiver with growing delays, gives up after the limit, and moves on to the next event', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    receiver.down = true; // 503 to everything
    const t = await setUp('push_retry', receiver.url('/hook'));
    const collector = await collectorOn(t, { delivery: { ...FAST, giveUpAfterMs: 2500 } });
    const { visitId } = await liveCall(collector, 'retry-1');
    await collector.post('/api/customer-cart', cartFields(visitId, 1));
    await collector.post('/api/customer-cart', cartFields(visitId, 2));
    await expect.poll(async () => (await t.c.deliveryLog.find({ outcome: 'abandoned' }).toArray()).length, ).toBe(1);
    receiver.down = false;
    const [push] = await receiver.waitFor(1);
    expect(verifiedPush(push!, WEBHOOK_SECRET).cart.products[0].quantity).toBe(2);

    const attempts = await t.c.deliveryLog.find({ label: 'cart' }).sort({ at: 1 }).toArray();
    const first = attempts.filter((a) => a.messageId === attempts[0]!.messageId);
    expect(first.map((a) => a.error)).toContain('HTTP 503');
    expect(first.at(-1)!.outcome).toBe('abandoned');
    expect(first.length).toBeGreaterThanOrEqual(4);
    // Each wait is at least the back-off: 100, 200, 400 (capped) ms.
    const gaps = first.slice(1).map((a, i) => a.at.getTime() - first[i]!.at.getTime());
    expect(gaps[0]).toBeGreaterThanOrEqual(100);
    expect(gaps[1]).toBeGreaterThanOrEqual(200);
    expect(gaps[2]).toBeGreaterThanOrEqual(400);
  });
});
