// The agent service over HTTP: callStart's matching and shapes, attaching agents, errors, statistics.
import { formatUtcDateTime } from '@ringtrail/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { CC_KEY, commerceFixture, CUSTOMER_KEY, viewParams } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

describe('agent service', () => {
  const s = useSeededCollector('agent', commerceFixture(), { telephonyApiKey: TELEPHONY_KEY });
  const agentApi = (path: string, fields: Record<string, unknown>) => s.collector.post(`/agent-api/${path}`, { apiKey: CC_KEY, ...fields });
  let visitId: number;
  let number: string;
  let callId: number;
  let startedAt: Date;

  beforeAll(async () => {
    const landing = await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/', page_title: 'Home', referer_url: 'https://www.google.com/search?q=plumber', direct_display: false }));
    visitId = landing.body.visitId;
    const contact = await s.collector.post('/ospView', viewParams({ visit_id: visitId }));
    number = contact.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    startedAt = new Date(Math.ceil(Date.now() / 1000) * 1000); // the call comes after the number was shown
    callId = (await reportCall(s.collector.baseUrl, { callRef: 'agent-1', trackingNumber: number, startDate: startedAt, callerPhone: '0611223344' })).body.callId;
    const cart = { key: CUSTOMER_KEY, currency: 'EUR', visit_id: visitId, is_logged_in: 0, 'products[0][id]': 'SKU-1', 'products[0][name]': 'Boiler', 'products[0][quantity]': 2, 'products[0][price]': '19.90' };
    expect((await s.collector.post('/api/customer-cart', { ...cart, id: 'cart-1' })).body.status).toBe('success');
    const products = JSON.stringify([{ id: 'P1', name: 'Pump', quantity: 1, cost_per_unit: 30 }]);
    expect((await s.collector.post('/api/customer-order', { key: CUSTOMER_KEY, id: 'old-order', status: 'pending', visit_id: visitId, products })).body.status).toBe('success');
  });

  it('answers NOK for a bad key, quoting only its first characters', async () => {
    const wrong = await agentApi('callStart', { apiKey: 'secret-key-of-someone-else', destinationPhone: number, startDate: formatUtcDateTime(startedAt) });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toEqual({ status: 'NOK', error: 'Invalid apiKey secr...' });
    expect((await agentApi('setAgentToCall', { apiKey: undefined, callId, agent: 'a' })).body).toEqual({ status: 'NOK', error: 'Missing apiKey' });
    expect((await agentApi('callStart', { startDate: formatUtcDateTime(startedAt) })).body).toEqual({ status: 'NOK', error: 'Missing parameter destinationPhone' });
    // Found by schemathesis: '0000-00-00' made the date check throw (500), and so did a startDate of another shape.
    for (const startDate of ['2026-02-30 10:00:00', '0000-00-00 00:00:00', 'x', '2026-01-01 24:00:00']) {
      expect((await agentApi('callStart', { destinationPhone: number, startDate })).body).toEqual({ status: 'NOK', error: 'Invalid parameter startDate: must be a real date and time YYYY-MM-DD HH:MM:SS' });
    }
    for (const startDate of ['0000-00-00', '2026-13-45']) {
      expect(await agentApi('agentStats', { startDate })).toEqual({ status: 200, body: { status: 'NOK', error: 'Invalid parameter startDate: must be a date YYYY-MM-DD' } });
    }
  });

  it('finds the ringing call with its caller, pages, current cart and orders, and attaches the agent', async () => {
    const res = await agentApi('callStart', { callerPhone: '06 11 22 33 44', destinationPhone: number, startDate: formatUtcDateTime(new Date(startedAt.getTime() + 20_000)), agent: 'alice@shop.test' });
    expect(res.body.status).toBe('OK');
    expect(res.body.resultsNb).toBe(1);
    const [result] = res.body.results;
    expect(result.call).toEqual({ id: callId, startDate: formatUtcDateTime(startedAt), status: 'SUCCESS', source: 'organic:www.google.com', referrer: null, Keyword: 'plumber', agent: 'alice@shop.test', matchConfidence: 'certain', matchCandidates: 1, firstCall: true });
    expect(result.views.map((v: any) => [v.pageTitle, v.url])).toEqual([
      ['Home', 'https://shop.test/'],
      ['Contact', 'https://shop.test/contact'],
    ]);
    expect(result.views[0]).toEqual({ id: expect.any(Number), pageTitle: 'Home', url: 'https://shop.test/', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
    expect(result.currentCart).toEqual({
      id: expect.any(Number),
      externalId: 'cart-1',
      isLoggedIn: false,
      currency: 'EUR',
      status: 1,
      totalCost: 39.8,
      productsNb: 1,
      createdAt: expect.any(String),
      products: [{ id: 1, name: 'Boiler', quantity: 2, costPerUnit: 19.9 }],
    });
    expect(result.orders).toEqual([{ id: expect.any(Number), agent: null, status: 'pending', isSale: false, totalCost: 30, createdAt: expect.any(String), products: [{ id: 1, name: 'Pump', quantity: 1, costPerUnit: 30 }] }]);
    expect((await s.t.c.calls.findOne({ _id: callId }))!.agent).toBe('alice@shop.test');
  });

  it('matches nothing for another caller, a time outside five minutes, or a number of no account', async () => {
    const at = formatUtcDateTime(startedAt);
    const none = { status: 'OK', resultsNb: 0, results: [] };
    expect((await agentApi('callStart', { callerPhone: '0699999999', destinationPhone: number, startDate: at })).body).toEqual(none);
    expect((await agentApi('callStart', { destinationPhone: number, startDate: formatUtcDateTime(new Date(startedAt.getTime() + 6 * 60_000)) })).body).toEqual(none);
    expect((await agentApi('callStart', { destinationPhone: '0899999999', startDate: at })).body).toEqual(none);
    const anonymous = await agentApi('callStart', { callerPhone: 'anonymous', destinationPhone: number, startDate: at });
    expect(anonymous.body.resultsNb).toBe(1); // no caller given: any caller on that number and time
  });

  it('attaches an agent to a known call, and refuses an unknown one', async () => {
    expect((await agentApi('setAgentToCall', { callId, agent: 'bob@shop.test' })).body).toEqual({ status: 'OK', resultsNb: 1, results: [{ callId, agent: 'bob@shop.test' }] });
    expect((await s.t.c.calls.findOne({ _id: callId }))!.agent).toBe('bob@shop.test');
    expect((await agentApi('setAgentToCall', { callId: 999999, agent: 'bob@shop.test' })).body).toEqual({ status: 'NOK', error: 'Unknown callId 999999' });
    expect((await agentApi('setAgentToCall', { callId: 'abc', agent: 'bob@shop.test' })).body).toEqual({ status: 'NOK', error: 'Invalid parameter callId: must be an integer' });
  });

  it('counts per agent: calls, carts before and after, orders by phone, sales and revenue', async () => {
    // Bob, on the call, grows the cart from 39.80 to 59.70 and turns it into a paid order.
    const cart = { key: CUSTOMER_KEY, id: 'cart-1', currency: 'EUR', visit_id: visitId, is_logged_in: 1, call_id: callId, 'products[0][id]': 'SKU-1', 'products[0][name]': 'Boiler', 'products[0][quantity]': 3, 'products[0][price]': '19.90' };
    expect((await s.collector.post('/api/customer-cart', cart)).body.status).toBe('success');
    const products = JSON.stringify([{ id: 'SKU-1', name: 'Boiler', quantity: 3, cost_per_unit: 19.9 }]);
    expect((await s.collector.post('/api/customer-order', { key: CUSTOMER_KEY, id: 'phone-order', status: 'paid', cart_id: 'cart-1', call_id: callId, products })).body.status).toBe('success');
    const order = await s.t.c.orders.findOne({ externalId: 'phone-order' });
    // The sale of a call takes the call's touches: here its own visit, the visitor's only one.
    const call = await s.t.c.calls.findOne({ _id: callId });
    expect(call!.firstTouch).toMatchObject({ source: 'organic:www.google.com', keyword: 'plumber' });
    expect(order!.attribution).toEqual({ visitId: null, callId, source: 'organic:www.google.com', keyword: 'plumber', agent: 'bob@shop.test', lastTouch: call!.lastTouch, firstTouch: call!.firstTouch, lastNonDirect: call!.lastNonDirect });

    const stats = await agentApi('agentStats', {});
    expect(stats.body).toEqual({
      status: 'OK',
      resultsNb: 1,
      results: [{ agent: 'bob@shop.test', callsTaken: 1, cartsTouched: 1, cartValueBefore: 39.8, cartValueAfter: 59.7, ordersByPhone: 1, sales: 1, conversionRate: 1, revenue: 59.7 }],
    });
    const lastYear = await agentApi('agentStats', { startDate: '2020-01-01', endDate: '2020-12-31' });
    expect(lastYear.body).toEqual({ status: 'OK', resultsNb: 0, results: [] });
  });
});
