// The back end's reports over HTTP: visits, views and calls by source and keyword from the
// write-time counters (checked against a recount of what is stored), the calls log and its CSVs,
// the pools report.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { CC_KEY, commerceFixture, CUSTOMER_KEY, viewParams } from '../helpers/fixtures.ts';
import { PoolSampler } from '../../collector/src/reports/pool-sampler.ts';
import { createLogger } from '../../collector/src/logger.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const PASSWORD = 'owner password 1';
const base = commerceFixture({ ga4: false });
const fixture = { accounts: [{ ...base.accounts[0]!, users: [{ username: 'owner@shop.test', password: PASSWORD }] }] };
const today = new Date().toISOString().slice(0, 10);
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('back end reports', () => {
  const s = useSeededCollector('manage_reports', fixture, { telephonyApiKey: TELEPHONY_KEY, signInLimits: { perIp: 1000, perUsernameAndIp: 1000, signUpsPerIp: 1000 } });
  let owner: ManageClient;
  const held: Record<string, string> = {};

  async function view(label: string, extra: Record<string, unknown>): Promise<{ visitId: number; number: string | null }> {
    const res = await s.collector.post('/ospView', viewParams({ ip: `198.51.100.${Object.keys(held).length + 1}`, ...extra } as Record<string, string>));
    const phones = Object.values((res.body.surtaxPhones ?? {}) as Record<string, { surtaxPhoneNumber: string }>);
    const number = phones[0]?.surtaxPhoneNumber.replace(/\./g, '') ?? null;
    if (number) held[label] = number;
    return { visitId: res.body.visitId, number };
  }

  it('counts visits, views and calls by source class and keyword, as a recount of the stored ones does', async () => {
    owner = await signedInClient(s.collector.baseUrl, 'owner@shop.test', PASSWORD);
    const organic = await view('organic', { url: 'https://shop.test/', referer_url: 'https://www.google.com/search?q=blue+shoes' });
    await s.collector.post('/ospView', viewParams({ visit_id: organic.visitId, url: 'https://shop.test/contact', direct_display: false }));
    await view('paid', { url: 'https://shop.test/?gclid=abc123&utm_medium=cpc&utm_term=red+shoes' });
    await view('direct', {});
    await s.collector.post('/ospView', viewParams({ user_agent: BOT, direct_display: false }));

    const now = new Date();
    expect((await reportCall(s.collector.baseUrl, { callRef: 'c1', trackingNumber: held.organic!, startDate: now, duration: 120 })).status).toBe(200);
    expect((await reportCall(s.collector.baseUrl, { callRef: 'c2', trackingNumber: held.paid!, startDate: now, revenue: 12.5 })).status).toBe(200);
    expect((await reportCall(s.collector.baseUrl, { callRef: 'c3', trackingNumber: '0100000001', startDate: now, status: 'NORESPONSE' })).status).toBe(200);

    const { status, body } = await owner.get(`/domains/shop.test/reports/overview?from=${today}&to=${today}`);
    expect(status).toBe(200);
    // Views turned into calls: the two from a page; the offline number's call came from none.
    // The two leads are of one caller: one person who became a lead.
    expect(body.totals).toEqual({ visits: 3, views: 4, calls: 3, newCallers: 1, leads: 2, leadRate: 0.6667, formLeads: 0, leadPeople: 1, answered: 2, missed: 1, abandoned: 0, voicemails: 0, blocked: 0, spam: 0, forms: 0, formSpam: 0, conversionRate: 0.5, orders: 0, revenue: 0 });
    expect(body.days).toEqual([{ day: today, visits: 3, views: 4, calls: 3, newCallers: 1, leads: 2, leadRate: 0.6667, formLeads: 0, leadPeople: 1, conversionRate: 0.5, orders: 0, revenue: 0 }]);
    const source = (name: string) => body.sources.find((r: { source: string }) => r.source === name);
    expect(source('organic')).toMatchObject({ visits: 1, views: 2, calls: 1, conversionRate: 1 });
    expect(source('paid')).toMatchObject({ visits: 1, views: 1, calls: 1, conversionRate: 1 });
    expect(source('direct')).toMatchObject({ visits: 1, views: 1, calls: 0, conversionRate: 0 });
    expect(source('social')).toMatchObject({ visits: 0, calls: 0 });
    expect(source('unattributed')).toMatchObject({ visits: 0, calls: 1 });
    expect(body.keywords).toEqual([
      expect.objectContaining({ keyword: 'blue shoes', visits: 1, calls: 1 }),
      expect.objectContaining({ keyword: 'red shoes', visits: 1, calls: 1 }),
    ]);

    // The counters against a recount of what is stored.
    const visits = await s.t.c.visits.find({ isBot: false }).toArray();
    const views = await s.t.c.views.find({ isBot: false }).toArray();
    const calls = await s.t.c.calls.find().toArray();
    expect(body.totals).toMatchObject({ visits: visits.length, views: views.length, calls: calls.length, newCallers: calls.filter((c) => c.firstCall).length, leads: calls.filter((c) => c.lead).length });
    for (const cls of ['organic', 'paid', 'direct']) {
      expect(source(cls).visits).toBe(visits.filter((v) => v.attribution.source === cls).length);
      expect(source(cls).calls).toBe(calls.filter((c) => c.source?.split(':')[0] === cls).length);
    }
    // A whole month reads its keywords from the monthly counters: the same rows.
    const month = today.slice(0, 7);
    const lastDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0)).toISOString().slice(0, 10);
    expect((await owner.get(`/domains/shop.test/reports/overview?from=${month}-01&to=${lastDay}`)).body.keywords).toEqual(body.keywords);
    // A range without traffic has every day, at zero.
    const empty = await owner.get('/domains/shop.test/reports/overview?from=2020-01-01&to=2020-01-03');
    expect(empty.body.days.map((d: { day: string; calls: number }) => [d.day, d.calls])).toEqual([['2020-01-01', 0], ['2020-01-02', 0], ['2020-01-03', 0]]);
    expect(empty.body.totals).toMatchObject({ visits: 0, calls: 0, conversionRate: 0 });
  });

  it('puts the period of the same length just before beside the overview: its totals and its days', async () => {
    const current = (await owner.get(`/domains/shop.test/reports/overview?from=${today}&to=${today}`)).body;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const next = (await owner.get(`/domains/shop.test/reports/overview?from=${tomorrow}&to=${tomorrow}`)).body;
    // Tomorrow's period before is today: today's figures, day for day.
    expect(next.previous).toEqual({ from: today, to: today, totals: current.totals, days: current.days });
    expect(current.totals.calls).toBeGreaterThan(0);
    const week = (await owner.get('/domains/shop.test/reports/overview?from=2026-03-08&to=2026-03-14')).body.previous;
    expect([week.from, week.to, week.days.length]).toEqual(['2026-03-01', '2026-03-07', 7]);
  });

  it('refuses a bad range with a clear error', async () => {
    const cases: [string, string][] = [
      ['from=2026-02-30', 'from must be a date YYYY-MM-DD'],
      ['from=2026-02-02&to=2026-02-01', 'from must not be after to'],
      ['from=2020-01-01&to=2026-01-01', 'A report covers at most 400 days'],
    ];
    for (const [query, error] of cases) expect(await owner.get(`/domains/shop.test/reports/overview?${query}`)).toMatchObject({ status: 400, body: { error } });
    expect(await owner.get('/domains/shop.test/reports/calls?status=GREAT')).toMatchObject({ status: 400 });
  });

  it('lists the calls with what led to them, filters them, and exports them as CSV', async () => {
    const log = await owner.get('/domains/shop.test/reports/calls');
    expect(log.body.calls).toHaveLength(3);
    // The log says how many calls its filters give in all, and pages through them.
    expect(log.body).toMatchObject({ total: 3, totalCapped: false, page: 1, pageSize: 50, hasMore: false });
    expect((await owner.get('/domains/shop.test/reports/calls?source=paid')).body).toMatchObject({ total: 1 });
    const paid = log.body.calls.find((c: { trackingNumber: string }) => c.trackingNumber === held.paid);
    expect(paid).toMatchObject({ status: 'SUCCESS', source: expect.stringMatching(/^paid/), keyword: 'red shoes', gclid: 'abc123', landingPage: 'https://shop.test/?gclid=abc123&utm_medium=cpc&utm_term=red+shoes', caller: '0611223344' });
    const organic = log.body.calls.find((c: { trackingNumber: string }) => c.trackingNumber === held.organic);
    expect(organic).toMatchObject({ source: 'organic:www.google.com', keyword: 'blue shoes', duration: 120, pagesSeen: ['https://shop.test/', 'https://shop.test/contact'] });
    expect((await owner.get('/domains/shop.test/reports/calls?source=paid')).body.calls.map((c: { gclid: string }) => c.gclid)).toEqual(['abc123']);
    expect((await owner.get('/domains/shop.test/reports/calls?status=NOTASSIGNED')).body.calls).toEqual([expect.objectContaining({ trackingNumber: '0100000001', source: null })]);
    expect((await owner.get('/domains/shop.test/reports/calls?source=unattributed')).body.calls).toHaveLength(1);

    const csv = await owner.get('/domains/shop.test/reports/calls.csv');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="calls-shop.test-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d.csv"$/);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('callId,startedAt,trackingNumber,caller,destination,status,duration,source,keyword,landingPage,pagesSeen,gclid,offlineDescription,agent,revenue,matchConfidence,matchCandidates,firstCall,lead,verdict,msclkid,fbclid,firstTouchSource,firstTouchKeyword,firstTouchAt,lastNonDirectSource,keyPhrases,transcript,tags,value,summary,intent,leadScore,sentiment,appointmentBooked,quoteGiven,saleMade,existingCustomer,spam,followUpNeeded');
    expect(lines).toHaveLength(4);
    expect(lines.find((l) => l.includes('abc123'))).toContain(',red shoes,https://shop.test/?gclid=abc123&utm_medium=cpc&utm_term=red+shoes,');

    const ads = await owner.get('/domains/shop.test/reports/google-ads.csv');
    const adLines = ads.text.trimEnd().split(/\r?\n/);
    expect(adLines[0]).toBe('Parameters:TimeZone=UTC');
    expect(adLines[1]).toBe('Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency');
    expect(adLines.slice(2)).toEqual([expect.stringMatching(/^abc123,RingTrail lead,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,12\.5,EUR$/)]);
  });

  it('counts a sale once, under the source of its visit, and puts it in the Google Ads file', async () => {
    const paidVisit = (await s.t.c.visits.findOne({ 'attribution.gclid': 'abc123' }))!._id;
    const order = (status: string) =>
      s.collector.post('/api/customer-order', { key: CUSTOMER_KEY, id: 'O-1', cart_id: 'cart-o1', currency: 'EUR', visit_id: paidVisit, status, 'products[0][id]': 'SKU-1', 'products[0][name]': 'Boiler', 'products[0][quantity]': 2, 'products[0][price]': '24.50' });
    for (const status of ['pending', 'paid', 'shipped']) expect((await order(status)).body).toEqual({ status: 'success' });
    const { body } = await owner.get(`/domains/shop.test/reports/overview?from=${today}&to=${today}`);
    expect(body.totals).toMatchObject({ orders: 1, revenue: 49 });
    expect(body.sources.find((r: { source: string }) => r.source === 'paid')).toMatchObject({ orders: 1, revenue: 49 });
    const ads = (await owner.get('/domains/shop.test/reports/google-ads.csv')).text.trimEnd().split(/\r?\n/);
    expect(ads.slice(2)).toEqual([expect.stringMatching(/^abc123,RingTrail lead,/), expect.stringMatching(/^abc123,RingTrail sale,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,49,EUR$/)]);
  });

  it('shows the agents of the account', async () => {
    const callId = (await s.t.c.calls.findOne({ callRef: 'c1' }))!._id;
    const set = await s.collector.post('/agent-api/setAgentToCall', { apiKey: CC_KEY, callId, agent: 'alice@shop.test' });
    expect(set.body.status).toBe('OK');
    const { body } = await owner.get(`/reports/agents?from=${today}&to=${today}`);
    expect(body.agents).toEqual([expect.objectContaining({ agent: 'alice@shop.test', callsTaken: 1 })]);
  });

  it('reports the numbers held now and at peak, the hours the pool ran out, and the size it should have', async () => {
    // The three visitors of the first test hold pool 1's three numbers: a fourth is refused.
    // The hours the clock read around a request: it is counted in one of them (two if the hour just turned).
    const hourOf = (at: Date) => at.toISOString().slice(11, 13);
    const hoursAround = async <T>(request: () => Promise<T>) => {
      const before = hourOf(new Date());
      const result = await request();
      return { result, hours: [before, hourOf(new Date())] };
    };
    const refused = await hoursAround(() => s.collector.post('/ospView', viewParams({ ip: '192.0.2.99' })));
    expect(refused.result.body.status).toBe('WARNING');
    const { body } = await owner.get(`/domains/shop.test/reports/pools?from=${today}&to=${today}`);
    const pool = body.online.find((p: { type: number }) => p.type === 1);
    const hour = pool.exhaustedHours[0]?.hour;
    expect(refused.hours).toContain(hour);
    expect(pool).toEqual({ type: 1, shared: false, numbers: 3, capacity: 3, heldNow: 3, peakHeld: 3, exhaustedHours: [{ day: today, hour, refused: 1 }], heldBackFromOneAddress: 0, recommendedSize: 5 });
    expect(body.online.find((p: { type: number }) => p.type === 9)).toMatchObject({ shared: true, numbers: 1, capacity: 10_000, recommendedSize: 1 });
    expect(body.offline).toEqual([{ number: '0100000001', type: 6, description: null, destination: null, calls: 1 }]);

    // The minute sampler writes the same peak into the hour's counters.
    await s.t.c.trafficDays.updateOne({ _id: `shop.test|${today}` }, { $unset: { 'pools.1.peak': '' } });
    const sampled = await hoursAround(() => new PoolSampler(s.t.c, createLogger('silent')).sample());
    const peak = (await s.t.c.trafficDays.findOne({ _id: `shop.test|${today}` }))!.pools!['1']!.peak!;
    expect(Object.values(peak)).toEqual([3]);
    expect(sampled.hours).toContain(Object.keys(peak)[0]);
  });
});
