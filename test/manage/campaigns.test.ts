// The overview's Campaigns and Landing pages tables (issue 39): visits, calls, new callers, leads and
// sales per utm_campaign and per path of the visit's first page, credited by each touch model, from
// counters kept at write time that `npm run rebuild-summaries` gives again; each table bounded per
// document, whatever the visitors make up.
import { describe, expect, it } from 'vitest';
import { CallSummaries } from '../../collector/src/house/call-summaries.ts';
import { dayKey } from '../../collector/src/data/call-days.ts';
import { localTime } from '../../collector/src/domains/time-zone.ts';
import { MAX_KEYS, OTHER } from '../../collector/src/reports/dimensions.ts';
import { monthKey } from '../../collector/src/reports/dimension-months.ts';
import { TrafficDays } from '../../collector/src/reports/traffic-days.ts';
import { recountTraffic } from '../../collector/src/reports/traffic-recount.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { commerceFixture, CUSTOMER_KEY, DATA_KEY, viewParams } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const USER = { username: 'owner@shop.test', password: 'campaigns-password' };
const s = useSeededCollector('campaigns', commerceFixture({ ga4: false, tracking: { users: [USER], exclusive: ['0800000001', '0800000002', '0800000003', '0800000004'] } }), { telephonyApiKey: TELEPHONY_KEY });

const WINTER = 'https://shop.test/offers/boilers?utm_source=google&utm_medium=cpc&utm_campaign=winter%20boilers&utm_content=banner-a&utm_term=boiler';
const SPRING = 'https://shop.test/offers/spring?utm_source=newsletter&utm_medium=email&utm_campaign=spring-sale';

let ip = 0;
/** A visit of `visitor` from `url`; `call`: it holds a number, which is called now for 2 minutes (a lead). */
async function visit(visitor: string | undefined, url: string, call?: { ref: string; caller: string }) {
  const view = await s.collector.post('/ospView', viewParams({ url, referer_url: '', unique_visitor_id: visitor, direct_display: Boolean(call), ip: `198.51.100.${++ip}` }));
  expect(view.body.status).toBe('OK');
  const visitId = view.body.visitId as number;
  if (!call) return { visitId, callId: null };
  const trackingNumber = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '') as string;
  const { body } = await reportCall(s.collector.baseUrl, { callRef: call.ref, trackingNumber, startDate: new Date(), callerPhone: call.caller, duration: 120 });
  return { visitId, callId: body.callId as number };
}

type TableRow = { visits: number; calls: number; newCallers: number; leads: number; orders: number; revenue: number };
const rowsBy = (rows: (TableRow & Record<string, unknown>)[], name: string) => Object.fromEntries(rows.map((r) => [r[name] as string, { visits: r.visits, calls: r.calls, newCallers: r.newCallers, leads: r.leads, orders: r.orders, revenue: r.revenue }]));

describe('campaigns and landing pages', () => {
  let owner: ManageClient;
  const { from, to } = daysAroundNow();
  const overview = async (model?: string, range = { from, to }) => (await owner.get(`/domains/shop.test/reports/overview?from=${range.from}&to=${range.to}${model ? `&model=${model}` : ''}`)).body;

  it('counts visits, calls, new callers, leads and sales by campaign and by landing page, under each touch model', async () => {
    owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    // Visitor A comes from the winter campaign, then comes back typing the address and calls.
    await visit('visitor-A', WINTER);
    await visit('visitor-A', 'https://shop.test/contact', { ref: 'camp-A', caller: '0611000001' });
    // Visitor B comes from the winter campaign and calls from that visit, then buys on it.
    const b = await visit('visitor-B', WINTER, { ref: 'camp-B', caller: '0611000002' });
    expect((await s.collector.post('/api/customer-order', { key: CUSTOMER_KEY, id: 'camp-order', status: 'paid', visit_id: b.visitId, products: JSON.stringify([{ id: 'SKU', quantity: 1, cost_per_unit: 80 }]) })).body).toEqual({ status: 'success' });
    // A newsletter reader who neither calls nor buys.
    await visit(undefined, SPRING);

    const last = await overview();
    expect(rowsBy(last.campaigns, 'campaign')).toEqual({
      'winter boilers': { visits: 2, calls: 1, newCallers: 1, leads: 1, orders: 1, revenue: 80 },
      'spring-sale': { visits: 1, calls: 0, newCallers: 0, leads: 0, orders: 0, revenue: 0 },
    });
    expect(rowsBy(last.landingPages, 'path')).toEqual({
      '/offers/boilers': { visits: 2, calls: 1, newCallers: 1, leads: 1, orders: 1, revenue: 80 },
      '/contact': { visits: 1, calls: 1, newCallers: 1, leads: 1, orders: 0, revenue: 0 },
      '/offers/spring': { visits: 1, calls: 0, newCallers: 0, leads: 0, orders: 0, revenue: 0 },
    });
    // Rows with the most calls first.
    expect(last.campaigns[0].campaign).toBe('winter boilers');

    // By first touch, visitor A's call goes to the campaign and the page that first brought them.
    const first = await overview('first-touch');
    expect(rowsBy(first.campaigns, 'campaign')['winter boilers']).toEqual({ visits: 2, calls: 2, newCallers: 2, leads: 2, orders: 1, revenue: 80 });
    expect(rowsBy(first.landingPages, 'path')).toMatchObject({ '/offers/boilers': { visits: 2, calls: 2 }, '/contact': { visits: 1, calls: 0 } });
    // The last non-direct touch of visitor A is the campaign's visit too.
    expect(rowsBy((await overview('last-non-direct')).campaigns, 'campaign')['winter boilers']).toMatchObject({ calls: 2 });

    // The calls keep the visit's campaign and content through their touches; the data API says it.
    const callB = (await s.t.c.calls.findOne({ callRef: 'camp-B' }))!;
    expect(callB.lastTouch).toMatchObject({ campaign: 'winter boilers', content: 'banner-a', landingUrl: WINTER });
    const records = (await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 100 })).body.results;
    expect(Object.fromEntries(records.map((r: { call_id: number; utm_campaign: string | null }) => [r.call_id, r.utm_campaign]))).toEqual({ [callB._id]: 'winter boilers', [(await s.t.c.calls.findOne({ callRef: 'camp-A' }))!._id]: null });
  });

  it('reads whole months from the monthly counters: the same rows as the days give', async () => {
    const month = localTime(new Date(), 'Europe/Paris').day.slice(0, 7);
    const lastDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0)).toISOString().slice(0, 10);
    for (const model of ['last-touch', 'first-touch']) {
      const byDays = await overview(model);
      const byMonth = await overview(model, { from: `${month}-01`, to: lastDay });
      expect(byMonth.campaigns).toEqual(byDays.campaigns);
      expect(byMonth.landingPages).toEqual(byDays.landingPages);
      expect(byMonth.keywords).toEqual(byDays.keywords);
    }
  });

  it('are counted again by npm run rebuild-summaries after counters went wrong', async () => {
    const before = { last: await overview(), first: await overview('first-touch') };
    const domain = (await s.t.c.domains.findOne({ _id: 'shop.test' }))!;
    const today = localTime(new Date(), domain.timeZone).day;
    // A crash's damage: visits and calls counted twice, or not at all.
    await s.t.c.trafficDays.updateOne({ _id: dayKey('shop.test', today) }, { $inc: { 'cmp.winter%20boilers.visits': 5, 'calls.lp.%2Fcontact': 3 }, $unset: { 'calls.firstTouch.cmp': '' } });
    await s.t.c.keywordMonths.updateOne({ _id: monthKey('shop.test', today.slice(0, 7)) }, { $inc: { 'cmp.visits.spring-sale': 4, 'lp.firstTouch.calls.%2Foffers%2Fboilers': 2 } });
    expect((await overview()).campaigns).not.toEqual(before.last.campaigns);

    await new CallSummaries(s.t.c).rebuild('shop.test', domain.timeZone);
    await recountTraffic(s.t.c, 'shop.test', domain.timeZone);
    const month = today.slice(0, 7);
    const lastDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0)).toISOString().slice(0, 10);
    for (const [model, expected] of [[undefined, before.last], ['first-touch', before.first]] as const) {
      const days = await overview(model);
      expect(days.campaigns).toEqual(expected.campaigns);
      expect(days.landingPages).toEqual(expected.landingPages);
      expect((await overview(model, { from: `${month}-01`, to: lastDay })).campaigns).toEqual(expected.campaigns);
    }
  });

  it(`keeps at most ${MAX_KEYS} values per table and document: later ones count under ${OTHER}, in this process and the next`, async () => {
    const domain = (await s.t.c.domains.findOne({ _id: 'shop.test' }))!;
    // A day of its own, far from the other tests' traffic.
    const at = new Date('2024-03-10T12:00:00Z');
    const visitTo = (path: string) => ({ isBot: false, attribution: { source: 'direct' as const, sourceName: null, keyword: null, gclid: null, utm: { utm_campaign: path } }, landingUrl: `https://shop.test${path}` });
    const paths = Array.from({ length: MAX_KEYS + 5 }, (_, i) => `/made-up/${i}`);
    const traffic = new TrafficDays(s.t.c);
    for (let i = 0; i < paths.length; i += 100) await Promise.all(paths.slice(i, i + 100).map((path) => traffic.viewRecorded(domain, visitTo(path), true, at)));
    // A process started since knows the documents' values from them.
    const restarted = new TrafficDays(s.t.c);
    await restarted.viewRecorded(domain, visitTo('/made-up/new-after-restart'), true, at);
    await restarted.viewRecorded(domain, visitTo(paths[0]!), true, at); // one it holds: counted as itself

    const day = (await s.t.c.trafficDays.findOne({ _id: dayKey('shop.test', '2024-03-10') }))!;
    const month = (await s.t.c.keywordMonths.findOne({ _id: monthKey('shop.test', '2024-03') }))!;
    for (const table of [day.lp!, day.cmp!]) {
      expect(Object.keys(table)).toHaveLength(MAX_KEYS + 1);
      expect(table[OTHER]).toEqual({ visits: 6 });
      expect(table['%2Fmade-up%2F0']).toEqual({ visits: 2 });
    }
    for (const table of [month.lp!.visits!, month.cmp!.visits!]) {
      expect(Object.keys(table)).toHaveLength(MAX_KEYS + 1);
      expect(table[OTHER]).toBe(6);
    }
    const report = (await owner.get('/domains/shop.test/reports/overview?from=2024-03-10&to=2024-03-10')).body;
    expect(report.totals.visits).toBe(MAX_KEYS + 7);
    expect(report.landingPages.find((r: { path: string }) => r.path === OTHER)).toMatchObject({ visits: 6 });
    expect(report.landingPages).toHaveLength(50);
  });
});
