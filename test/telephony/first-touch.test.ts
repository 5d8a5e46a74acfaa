// The visitor's first touch (issue 23, part 3): the visits of one visitor of a domain are linked by
// their unique_visitor_id; a call and a sale record the visitor's first visit of the 90 days before
// (first_touch_*) and their latest visit that was not direct, beside the calling visit (the spec's
// `source`); the overview's tables switch between the three models, from counters kept at write
// time that a recount gives again.
import { describe, expect, it } from 'vitest';
import { CallSummaries } from '../../collector/src/house/call-summaries.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { commerceFixture, CUSTOMER_KEY, DATA_KEY, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const USER = { username: 'owner@shop.test', password: 'first-touch-password' };
const s = useSeededCollector('first_touch', commerceFixture({ ga4: false, tracking: { users: [USER], exclusive: ['0800000001', '0800000002', '0800000003', '0800000004', '0800000005'] } }), { telephonyApiKey: TELEPHONY_KEY });
const DAY = 86_400_000;

/** A visit of `visitor` (none: no visitor id) from `url` and `referrer`, moved `daysAgo` into the
 * past as if it had been made then; `call`: the visit holds a number and it is called now. */
async function visit(visitor: string | undefined, url: string, referrer: string, daysAgo: number, call?: { ref: string; caller: string }) {
  const view = await s.collector.post('/ospView', viewParams({ url, referer_url: referrer, unique_visitor_id: visitor, direct_display: Boolean(call) }));
  expect(view.body.status).toBe('OK');
  const visitId = view.body.visitId as number;
  const at = new Date(Date.now() - daysAgo * DAY);
  if (daysAgo) await s.t.c.visits.updateOne({ _id: visitId }, { $set: { createdAt: at, lastSeenAt: at } });
  if (!call) return { visitId, at, callId: null, trackingNumber: null };
  const trackingNumber = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '') as string;
  const { body } = await reportCall(s.collector.baseUrl, { callRef: call.ref, trackingNumber, startDate: new Date(), callerPhone: call.caller, duration: 120 });
  return { visitId, at, callId: body.callId as number, trackingNumber };
}

const AD = 'https://shop.test/?gclid=G-FIRST&utm_source=google&utm_medium=cpc&utm_term=boiler%20repair';
const SEARCH = 'https://www.google.com/search?q=emergency+plumber';

describe("a returning visitor's call", () => {
  it('keeps the calling visit as its source and records the first touch and the last non-direct one beside it', async () => {
    const ad = await visit('visitor-A', AD, '', 5);
    await visit('visitor-A', 'https://shop.test/prices', SEARCH, 2);
    await visit('visitor-B', 'https://shop.test/?utm_source=newsletter', '', 4); // another visitor: not linked
    const calling = await visit('visitor-A', 'https://shop.test/contact', '', 0, { ref: 'touch-A', caller: '0611000001' });
    // A visitor who came from an ad over 90 days ago and from a referral since: the ad is too old.
    await visit('visitor-C', AD, '', 100);
    const referral = await visit('visitor-C', 'https://shop.test/', 'https://forum.test/thread/9', 30);
    const late = await visit('visitor-C', 'https://shop.test/contact', '', 0, { ref: 'touch-C', caller: '0611000002' });
    // No visitor id (no consent): the visit is its own first touch.
    const anonymous = await visit(undefined, 'https://shop.test/contact', SEARCH, 0, { ref: 'touch-D', caller: '0611000003' });
    // Paid, then direct, then organic: the organic visit calls.
    await visit('visitor-E', AD, '', 6);
    await visit('visitor-E', 'https://shop.test/', '', 3);
    const organic = await visit('visitor-E', 'https://shop.test/contact', SEARCH, 0, { ref: 'touch-E', caller: '0611000004' });

    const { from, to } = daysAroundNow();
    const records = (await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 100 })).body.results;
    const recordOf = (number: string | null) => records.find((r: { tracking_number: string }) => r.tracking_number === number);
    expect(recordOf(calling.trackingNumber)).toMatchObject({
      source: 'direct',
      visit_id: String(calling.visitId),
      first_touch_source: 'paid:google',
      first_touch_keyword: 'boiler repair',
      first_touch_at: `${ad.at.toISOString().slice(0, 19)}Z`,
    });
    expect(recordOf(calling.trackingNumber)).not.toHaveProperty('gclid'); // the spec's gclid stays the calling visit's
    expect(recordOf(late.trackingNumber)).toMatchObject({ source: 'direct', first_touch_source: 'referral:forum.test', first_touch_keyword: null, first_touch_at: `${referral.at.toISOString().slice(0, 19)}Z` });
    expect(recordOf(anonymous.trackingNumber)).toMatchObject({ source: 'organic:www.google.com', first_touch_source: 'organic:www.google.com', first_touch_keyword: 'emergency plumber' });
    expect(recordOf(organic.trackingNumber)).toMatchObject({ source: 'organic:www.google.com', first_touch_source: 'paid:google', first_touch_keyword: 'boiler repair' });

    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    const log = (await owner.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}`)).body.calls;
    expect(log.find((c: { callId: number }) => c.callId === calling.callId)).toMatchObject({ source: 'direct', firstTouchSource: 'paid:google', firstTouchKeyword: 'boiler repair', lastNonDirectSource: 'organic:www.google.com' });
    const page = (await owner.get(`/domains/shop.test/calls/${calling.callId}`)).body;
    expect(page.call).toMatchObject({ firstTouchSource: 'paid:google', firstTouchAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
    const csv = (await owner.get(`/domains/shop.test/reports/calls.csv?from=${from}&to=${to}`)).text.split('\r\n');
    expect(csv[0]).toContain('firstTouchSource,firstTouchKeyword,firstTouchAt,lastNonDirectSource');
    expect(csv.find((line: string) => line.startsWith(`${calling.callId},`))).toContain('paid:google,boiler repair');
  });

  it('credits the overview’s tables by the chosen model, the sale too, and a recount gives the same counters', async () => {
    // A sale of visitor A, on the visit that called: credited like its call.
    const calling = (await s.t.c.calls.findOne({ callRef: 'touch-A' }))!;
    await s.collector.post('/api/customer-order', { key: CUSTOMER_KEY, id: 'touch-order', status: 'paid', visit_id: calling.visitId!, products: JSON.stringify([{ id: 'SKU', quantity: 1, cost_per_unit: 80 }]) });

    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    const { from, to } = daysAroundNow();
    const overviewBy = async (model?: string) => (await owner.get(`/domains/shop.test/reports/overview?from=${from}&to=${to}${model ? `&model=${model}` : ''}`)).body;
    const callsBySource = (body: { sources: { source: string; calls: number }[] }) => Object.fromEntries(body.sources.filter((r) => r.calls).map((r) => [r.source, r.calls]));
    const ordersBySource = (body: { sources: { source: string; orders: number }[] }) => Object.fromEntries(body.sources.filter((r) => r.orders).map((r) => [r.source, r.orders]));

    const last = await overviewBy();
    expect(last.model).toBe('last-touch');
    expect(callsBySource(last)).toEqual({ direct: 2, organic: 2 });
    expect(ordersBySource(last)).toEqual({ direct: 1 });
    const first = await overviewBy('first-touch');
    expect(callsBySource(first)).toEqual({ paid: 2, referral: 1, organic: 1 });
    expect(ordersBySource(first)).toEqual({ paid: 1 });
    expect(first.keywords.find((k: { keyword: string }) => k.keyword === 'boiler repair')).toMatchObject({ calls: 2, newCallers: 2 });
    expect(last.keywords.find((k: { keyword: string }) => k.keyword === 'boiler repair')).toMatchObject({ calls: 0 }); // its visits only
    const nonDirect = await overviewBy('last-non-direct');
    expect(callsBySource(nonDirect)).toEqual({ organic: 3, referral: 1 });
    expect(ordersBySource(nonDirect)).toEqual({ organic: 1 });
    // Totals and visits do not depend on the model: a visit counts under its own source.
    for (const other of [first, nonDirect]) {
      expect(other.totals).toEqual(last.totals);
      expect(other.sources.map((r: { visits: number }) => r.visits)).toEqual(last.sources.map((r: { visits: number }) => r.visits));
    }

    // The counters kept at write time are what a recount of the stored calls gives.
    await new CallSummaries(s.t.c).rebuild('shop.test', (await s.t.c.domains.findOne({ _id: 'shop.test' }))!.timeZone);
    expect(await overviewBy('first-touch')).toEqual(first);
    expect(await overviewBy('last-non-direct')).toEqual(nonDirect);

    const bad = await owner.get(`/domains/shop.test/reports/overview?model=linear`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('model must be one of last-touch, last-non-direct, first-touch');
  });
});
