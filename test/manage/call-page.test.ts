// A call's page in the back end (issue 23, part 2): the call with its verdict's author, the match
// confidence in words, the visitor's pages in order up to the call (not after), the orders tied to it.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { commerceFixture, CUSTOMER_KEY, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { until } from '../helpers/until.ts';

const USER = { username: 'owner@shop.test', password: 'call-page-password' };
const s = useSeededCollector('call_page', commerceFixture({ tracking: { users: [USER] } }), { telephonyApiKey: TELEPHONY_KEY });

describe("a call's page", () => {
  it('shows the call, its verdict and who gave it, the match in words, the pages up to the call and its orders', async () => {
    const landing = await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_term=boiler', page_title: 'Home' }));
    const visitId = landing.body.visitId;
    await s.collector.post('/ospView', viewParams({ visit_id: visitId, url: 'https://shop.test/prices', page_title: 'Prices' }));
    const number = landing.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    const startDate = new Date(Math.ceil(Date.now() / 1000) * 1000); // after both views, to the second
    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'page-1', trackingNumber: number, startDate, callerPhone: '0611223344', duration: 240 });
    await until(() => Date.now() > startDate.getTime() + 1000, 'the second after the call');
    await s.collector.post('/ospView', viewParams({ visit_id: visitId, url: 'https://shop.test/thanks', page_title: 'After the call' }));
    await s.collector.post('/api/customer-order', { key: CUSTOMER_KEY, id: 'order-page-1', status: 'paid', call_id: body.callId, products: JSON.stringify([{ id: 'SKU-9', quantity: 1, cost_per_unit: 90 }]) });

    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    await owner.call('PUT', `/domains/shop.test/calls/${body.callId}/verdict`, { verdict: 'not-lead' });
    const page = await owner.get(`/domains/shop.test/calls/${body.callId}`);
    expect(page.status).toBe(200);
    expect(page.body.call).toMatchObject({
      callId: body.callId,
      duration: 240,
      source: 'paid:google',
      keyword: 'boiler',
      firstCall: true,
      lead: false,
      verdict: 'not-lead',
      verdictBy: USER.username,
      verdictAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      matchConfidence: 'certain',
      matchInWords: 'Certain: one visit held this number before the call, and still held it when the call came in.',
    });
    expect(page.body.pages.map((p: { pageTitle: string }) => p.pageTitle)).toEqual(['Home', 'Prices']);
    expect(page.body.orders).toEqual([expect.objectContaining({ status: 'paid', isSale: true, totalCost: 90 })]);
    expect((await owner.get('/domains/shop.test/calls/424242')).body).toEqual({ error: 'No call 424242 in this domain' });
  });
});
