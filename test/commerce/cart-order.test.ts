// The cart and order services over HTTP: every spec error, idempotency on the shop's id, the two
// order variants, and the first sale counted once with its analytics event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCollector, testDatabase, seed, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { commerceFixture, CUSTOMER_KEY, viewParams } from '../helpers/fixtures.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { purchaseEvent } from '../../collector/src/commerce/analytics.ts';

const FAST_DELIVERY = { pollMs: 50, firstRetryMs: 100, maxRetryMs: 400, publicOnly: false };

describe('cart and order services', () => {
  let t: TestDatabase;
  let collector: RunningCollector;
  let ga4: Receiver;
  let visitId: number;

  beforeAll(async () => {
    ga4 = await startReceiver();
    t = await testDatabase('commerce');
    await seed(t.c, commerceFixture());
    collector = await startCollector(t.db, { delivery: FAST_DELIVERY, ga4Endpoint: ga4.url('/mp/collect') });
    const view = await collector.post('/ospView', viewParams({ url: 'https://shop.test/boiler', referer_url: 'https://www.google.com/search?q=boiler+repair', direct_display: false }));
    visitId = view.body.visitId;
  });
  afterAll(async () => {
    await collector?.close();
    await t?.close();
    await ga4?.close();
  });

  const cart = (fields: Record<string, unknown>) =>
    collector.post('/api/customer-cart', {
      key: CUSTOMER_KEY,
      id: 'cart-1',
      currency: 'EUR',
      visit_id: visitId,
      is_logged_in: 1,
      'products[0][id]': 'SKU-1',
      'products[0][name]': 'Boiler',
      'products[0][quantity]': 2,
      'products[0][price]': '19.90',
      ...fields,
    });
  const order = (fields: Record<string, unknown>) => collector.post('/api/customer-order', { key: CUSTOMER_KEY, ...fields });
  /** Every queued event delivered: whatever an order sent is at the receiver now. */
  const outboxDrained = () => expect.poll(() => t.c.outbox.countDocuments()).toBe(0);
  const orderA = (fields: Record<string, unknown>) =>
    order({ id: 'A-1', cart_id: 'cart-1', currency: 'EUR', visit_id: visitId, status: 'pending', 'products[0][id]': 'SKU-1', 'products[0][name]': 'Boiler', 'products[0][quantity]': 3, 'products[0][price]': '0.10', ...fields });

  it('answers every cart error of the spec, HTTP 200, storing nothing', async () => {
    expect((await cart({ key: 'wrong-key' })).body).toEqual({ status: 'error', message: 'Invalid API key' });
    expect((await cart({ key: undefined })).body).toEqual({ status: 'error', message: 'Invalid API key' });
    expect((await cart({ currency: '' })).body).toEqual({ status: 'error', message: 'Missing required parameter' });
    expect((await cart({ is_logged_in: undefined })).body).toEqual({ status: 'error', message: 'Missing required parameter' });
    expect((await cart({ 'products[0][price]': 'cheap' })).body).toEqual({ status: 'error', message: 'Invalid products format' });
    expect((await cart({ visit_id: 987654 })).body).toEqual({ status: 'error', message: 'Unknown visit_id' });
    const bad = await cart({ currency: 'euro' });
    expect(bad.status).toBe(200);
    expect(bad.body).toEqual({ status: 'error', message: 'Invalid parameter currency: must be an ISO 4217 code such as EUR' });
    expect(await t.c.carts.countDocuments()).toBe(0);
  });

  it('stores a cart once per id, keeps details as sent, and updates it on the next change', async () => {
    const first = await cart({ 'products[0][details][color]': 'red', 'products[0][details][sizes][0]': 'S', 'products[0][details][sizes][1]': 'M' });
    expect(first.body).toEqual({ status: 'success' });
    const second = await cart({ 'products[1][id]': 'SKU-2', 'products[1][name]': 'Valve', 'products[1][quantity]': 1, 'products[1][price]': '5', 'products[1][details]': 'fits every boiler' });
    expect(second.body).toEqual({ status: 'success' });
    const stored = await t.c.carts.find({ externalId: 'cart-1' }).toArray();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.totalCost).toBe(44.8);
    expect(stored[0]!.products.map((p) => p.details)).toEqual([null, 'fits every boiler']);
    const withDetails = await t.c.carts.findOne({ _id: stored[0]!._id });
    expect(withDetails!.visitId).toBe(visitId);
  });

  it('keeps nested product details as sent', async () => {
    await cart({ id: 'cart-details', 'products[0][details][color]': 'red', 'products[0][details][sizes][0]': 'S', 'products[0][details][sizes][1]': 'M' });
    const stored = await t.c.carts.findOne({ externalId: 'cart-details' });
    expect(stored!.products[0]!.details).toEqual({ color: 'red', sizes: ['S', 'M'] });
  });

  it('makes one cart of five simultaneous first submissions of a new id', async () => {
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => cart({ id: 'cart-race', 'products[0][quantity]': n })));
    expect(answers.map((a) => a.body.status)).toEqual(Array(5).fill('success'));
    expect(await t.c.carts.countDocuments({ externalId: 'cart-race' })).toBe(1);
  });

  it('tells the order variants apart: bracket products are A, a JSON string (or none) is B', async () => {
    expect((await orderA({ key: 'nope' })).body).toEqual({ status: 'error', message: 'Invalid API key' });
    expect((await order({ key: 'nope', id: 'B-0', status: 'paid', products: '[]' })).body).toEqual({ status: 'error', message: 'Invalid api key' });
    expect((await orderA({ cart_id: undefined })).body).toEqual({ status: 'error', message: 'Missing required parameter' });
    expect((await order({ id: 'B-0' })).body).toEqual({ status: 'error', message: 'Missing required parameter' });
    expect((await order({ id: 'B-0', status: 'paid', products: '{not json' })).body).toEqual({ status: 'error', message: 'Invalid products format' });
    expect((await order({ id: 'B-0', status: 'paid', products: '[{"id":"X","quantity":"two","cost_per_unit":1}]' })).body).toEqual({ status: 'error', message: 'Invalid products format' });
    expect((await orderA({ status: 'lost in transit' })).body).toEqual({ status: 'error', message: 'Unknown status' });
    expect((await orderA({ visit_id: 'abc' })).body).toEqual({ status: 'error', message: 'Unknown visit_id' });
    expect(await t.c.orders.countDocuments()).toBe(0);

    expect((await orderA({})).body).toEqual({ status: 'success' });
    const a = await t.c.orders.findOne({ externalId: 'A-1' });
    expect(a).toMatchObject({ variant: 'A', totalCost: 0.3, currency: 'EUR', status: 'pending', isSale: false, externalCartId: 'cart-1' });
    expect(a!.convertedAt ?? null).toBeNull();
    expect(a!.cartId).toBe((await t.c.carts.findOne({ externalId: 'cart-1' }))!._id);

    const products = JSON.stringify([
      { id: 'P1', name: 'Pump', quantity: 2, cost_per_unit: 12.5, details: { color: 'blue' } },
      { id: 'P2', name: 'Seal', quantity: 4, cost_per_unit: 0.25 },
    ]);
    expect((await order({ id: 'B-1', status: 'pending', products })).body).toEqual({ status: 'success' });
    const b = await t.c.orders.findOne({ externalId: 'B-1' });
    expect(b).toMatchObject({ variant: 'B', totalCost: 26, currency: 'EUR', visitId: null, callId: null, cartId: null });
    expect(b!.products[0]).toEqual({ externalId: 'P1', name: 'Pump', quantity: 2, costPerUnit: 12.5, details: { color: 'blue' } });
  });

  it('updates an order by id; a status change without products keeps them', async () => {
    const products = JSON.stringify([{ id: 'P1', name: 'Pump', quantity: 1, cost_per_unit: 30 }]);
    await order({ id: 'B-2', status: 'pending', products, currency: 'USD' });
    expect((await order({ id: 'B-2', status: 'cancelled' })).body).toEqual({ status: 'success' });
    const stored = await t.c.orders.find({ externalId: 'B-2' }).toArray();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ status: 'cancelled', totalCost: 30, currency: 'USD' });
  });

  it('counts the first sale once, credits the visit, and sends one GA4 purchase event', async () => {
    await orderA({ id: 'A-sale' });
    expect((await orderA({ id: 'A-sale', status: 'paid' })).body).toEqual({ status: 'success' });
    await orderA({ id: 'A-sale', status: 'cancelled' });
    await orderA({ id: 'A-sale', status: 'shipped' }); // back to a sale: not a new conversion
    const stored = await t.c.orders.findOne({ externalId: 'A-sale' });
    expect(stored!.convertedAt).toBeInstanceOf(Date);
    // A visit with no visitor id: it is its own first touch and last non-direct one.
    const touch = { visitId, at: expect.any(Date), source: 'organic:www.google.com', keyword: 'boiler repair', landingUrl: expect.any(String), campaign: null, content: null, gclid: null, msclkid: null, fbclid: null };
    expect(stored!.attribution).toEqual({ visitId, callId: null, source: 'organic:www.google.com', keyword: 'boiler repair', agent: null, lastTouch: touch, firstTouch: touch, lastNonDirect: touch });

    const [event] = await ga4.waitFor(1, (r) => r.body.includes('"A-sale"'));
    expect(event!.query.get('measurement_id')).toBe('G-TEST123');
    expect(event!.query.get('api_secret')).toBe('ga4-test-secret');
    expect(JSON.parse(event!.body)).toEqual({
      client_id: `ringtrail.visit.${visitId}`,
      events: [
        {
          name: 'purchase',
          params: { transaction_id: 'A-sale', currency: 'EUR', value: 0.3, source: 'organic:www.google.com', items: [{ item_id: 'SKU-1', item_name: 'Boiler', quantity: 3, price: 0.1 }] },
        },
      ],
    });
    await outboxDrained(); // a wrong second event would have been sent by now
    expect(ga4.received.filter((r) => r.body.includes('"A-sale"'))).toHaveLength(1);
  });

  it("sends the purchase with the visitor's own GA4 client and session ids when the page knew them", async () => {
    // The browser door passes them on from GA4's cookies (_ga, _ga_<stream>); /ospView takes them too.
    const view = await collector.post('/ospView', viewParams({ url: 'https://shop.test/', direct_display: false, ga_client_id: '1234567890.1712345678', ga_session_id: '1712349999' }));
    expect((await order({ id: 'B-ga', status: 'paid', visit_id: view.body.visitId, products: JSON.stringify([{ id: 'P', quantity: 1, cost_per_unit: 10 }]) })).body).toEqual({ status: 'success' });
    const [event] = await ga4.waitFor(1, (r) => r.body.includes('"B-ga"'));
    const body = JSON.parse(event!.body);
    expect(body.client_id).toBe('1234567890.1712345678');
    expect(body.events[0].params).toMatchObject({ transaction_id: 'B-ga', session_id: '1712349999' });
    expect((await collector.post('/ospView', viewParams({ ga_client_id: 'GA1.1.bad' }))).body).toEqual({ status: 'INVALID_PARAMETER', errorMessage: 'Invalid parameter ga_client_id: must be the client id of a _ga cookie, such as 1234567890.1712345678' });
  });

  it('makes one order, one conversion and one event of simultaneous sale submissions of a new id', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => orderA({ id: 'A-race', status: 'paid' })));
    expect(answers.map((a) => a.body.status)).toEqual(Array(4).fill('success'));
    expect(await t.c.orders.countDocuments({ externalId: 'A-race' })).toBe(1);
    await ga4.waitFor(1, (r) => r.body.includes('"A-race"'));
    await outboxDrained();
    expect(ga4.received.filter((r) => r.body.includes('"A-race"'))).toHaveLength(1);
  });

  it('queues, at the next start, the event of a sale whose process died between claiming it and queuing the event', async () => {
    await orderA({ id: 'A-lost' });
    const stored = (await t.c.orders.findOne({ externalId: 'A-lost' }))!;
    const domain = (await t.c.domains.findOne({ _id: stored.domainId }))!;
    const sale = { ...stored, status: 'paid', isSale: true, convertedAt: new Date(), attribution: null };
    // The state such a death leaves: the conversion claimed with its event, nothing in the outbox.
    await t.c.conversions.insertOne({ _id: stored._id, domainId: domain._id, at: new Date(Date.now() - 120_000), event: purchaseEvent(domain, sale, ga4.url('/mp/collect')), queued: false });
    const restarted = await startCollector(t.db, { delivery: FAST_DELIVERY, ga4Endpoint: ga4.url('/mp/collect') });
    try {
      await ga4.waitFor(1, (r) => r.body.includes('"A-lost"'));
      await expect.poll(async () => (await t.c.conversions.findOne({ _id: stored._id }))!.queued).toBe(true);
    } finally {
      await restarted.close();
    }
  });

  it('stores an order with neither visit_id nor call_id unattributed: no conversion, no event', async () => {
    const products = JSON.stringify([{ id: 'P1', name: 'Pump', quantity: 1, cost_per_unit: 30 }]);
    expect((await order({ id: 'B-anon', status: 'paid', products })).body).toEqual({ status: 'success' });
    const stored = await t.c.orders.findOne({ externalId: 'B-anon' });
    expect(stored!.isSale).toBe(true);
    expect(stored!.convertedAt ?? null).toBeNull();
    expect(stored!.attribution ?? null).toBeNull();
    await outboxDrained();
    expect(ga4.received.some((r) => r.body.includes('"B-anon"'))).toBe(false);
  });
});
