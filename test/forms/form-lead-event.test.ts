// A form submission that is a lead is told to the domain's GA4 as `generate_lead` (issue 43), once,
// with `lead_source: form` and the visit's source and keyword; a spam one is not.
import { browserPost } from '../helpers/site-page.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { commerceFixture } from '../helpers/fixtures.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

const ORIGIN = 'https://shop.test';
let t: TestDatabase;
let ga4: Receiver;
let collector: RunningCollector;
beforeAll(async () => {
  ga4 = await startReceiver();
  t = await testDatabase('form_lead_events');
  await seed(t.c, commerceFixture({ tracking: { settings: { formTracking: { enabled: true, fields: [] } } } }));
  collector = await startCollector(t.db, { ga4Endpoint: ga4.url('/mp/collect') });
});
afterAll(async () => {
  await collector?.close();
  await t?.close();
  await ga4?.close();
});

const post = (path: string, fields: Record<string, string | number>) => browserPost(collector.baseUrl, path, fields);

describe('generate_lead for forms', () => {
  it('is sent once for a lead, with the visit as its client, and never for spam', async () => {
    const seen = await (await post('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/?utm_source=google&utm_medium=cpc&utm_term=leaking+tap`, page_title: 'Home', referer_url: '', phones: '' })).json();
    await post('/t/form', { key: 'pk-test-key', visit_id: seen.visitId, url: `${ORIGIN}/contact`, fields: JSON.stringify({ email: 'ada@example.com' }), elapsed_ms: 9000 });
    await post('/t/form', { key: 'pk-test-key', visit_id: seen.visitId, url: `${ORIGIN}/contact`, fields: JSON.stringify({ email: 'bot@example.com' }), elapsed_ms: 300 });
    await expect.poll(() => t.c.outbox.countDocuments()).toBe(0);
    const leads = ga4.received.map((r) => JSON.parse(r.body)).filter((b) => b.events[0].name === 'generate_lead');
    expect(leads).toEqual([{ client_id: `ringtrail.visit.${seen.visitId}`, events: [{ name: 'generate_lead', params: { currency: 'EUR', value: 0, lead_source: 'form', source: 'paid:google', keyword: 'leaking tap' } }] }]);
  });
});
