// One address cannot drain a pool: it holds at most numbersPerAddress numbers of a domain at once,
// through /ospView and /ospClick (their ip, or the view's) and the browser doors (the connection's).
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { CHROME_AGENT } from '../helpers/site-page.ts';
import { until } from '../helpers/until.ts';
import { poolsReport } from '../../collector/src/reports/pools.ts';

const LIMIT = 4;
const ADDRESS_LIMIT = 'No tracking number available: this address already holds as many numbers as one address may';
const fixture = trackingFixture({ numbersPerAddress: LIMIT, exclusive: Array.from({ length: 30 }, (_, i) => `08000000${i + 10}`) });
(fixture.accounts[0]!.domains[0]!.pools[0] as { overflowNumber?: string }).overflowNumber = '0800000099';

describe('numbers per address', () => {
  const s = useSeededCollector('address_limit', fixture, { metricsKey: 'metrics-key-of-the-test' });
  const viewFrom = async (ip: string, extra: Record<string, string | number | boolean> = {}) => (await s.collector.post('/ospView', viewParams({ ip, ...extra }))).body;

  it('gives one address its limit of numbers, then answers as an exhausted pool does, and records the view', async () => {
    const answers = [];
    for (let i = 0; i < LIMIT + 2; i++) answers.push(await viewFrom('198.51.100.1'));
    expect(answers.map((a) => a.status)).toEqual(['OK', 'OK', 'OK', 'OK', 'WARNING', 'WARNING']);
    expect(answers[LIMIT]).toEqual({ status: 'WARNING', errorMessage: ADDRESS_LIMIT, visitId: expect.any(Number), viewId: expect.any(Number) });
    expect(await s.t.c.views.findOne({ _id: answers[LIMIT].viewId })).toMatchObject({ ip: '198.51.100.1' });
    // Another address, and the same visits' next views, are served as before.
    expect((await viewFrom('198.51.100.2')).status).toBe('OK');
    expect((await viewFrom('198.51.100.1', { visit_id: answers[0].visitId })).surtaxPhones).toEqual(answers[0].surtaxPhones);
  });

  it('never overshoots under simultaneous requests from one address', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => viewFrom('198.51.100.3')));
    expect(answers.filter((a) => a.status === 'OK')).toHaveLength(LIMIT);
    expect(answers.filter((a) => a.errorMessage === ADDRESS_LIMIT)).toHaveLength(20 - LIMIT);
    const held = await s.t.c.leases.countDocuments({ visitId: { $in: answers.map((a) => a.visitId) }, expiresAt: { $gt: new Date() } });
    expect(held).toBe(LIMIT);
  });

  it('counts a number again as soon as it is released, and as long as it is kept', async () => {
    const ip = '198.51.100.4';
    const held = [];
    for (let i = 0; i < LIMIT; i++) held.push(await viewFrom(ip, { expiration: 2 }));
    expect((await viewFrom(ip)).errorMessage).toBe(ADDRESS_LIMIT);
    // One released: its place is free at once.
    const released = held.pop()!.surtaxPhones['0123456789'].surtaxPhoneNumber;
    expect((await s.collector.post('/ospExpiration', { api_key: 'track-test-key', surtax_phone: released, expiration: 0 })).body.status).toBe('OK');
    expect((await viewFrom(ip, { expiration: 600 })).status).toBe('OK');
    // The others kept past their first two seconds still count.
    for (const h of held) await s.collector.post('/ospExpiration', { api_key: 'track-test-key', surtax_phone: h.surtaxPhones['0123456789'].surtaxPhoneNumber, expiration: 600 });
    const firstEnd = Date.now() + 2000;
    await until(() => Date.now() > firstEnd, 'the first holds to pass their first expiry');
    expect((await viewFrom(ip)).errorMessage).toBe(ADDRESS_LIMIT);
  });

  it('takes the address of its view for /ospClick', async () => {
    const ip = '198.51.100.5';
    const view = await viewFrom(ip, { direct_display: false, nr_phones: 0, phones: '' });
    const click = () => s.collector.post('/ospClick', { api_key: 'track-test-key', phone: '0123456789', view_id: view.viewId }).then((r) => r.body);
    for (let i = 0; i < LIMIT; i++) expect((await viewFrom(ip)).status).toBe('OK');
    expect(await click()).toEqual({ status: 'WARNING', errorMessage: ADDRESS_LIMIT });
  });

  it('shows the overflow number at the browser door, and counts what it held back in the pools report and the metrics', async () => {
    // The browser door takes the connection's address: this test's own, 127.0.0.1.
    const door = () =>
      fetch(`${s.collector.baseUrl}/t/view`, {
        method: 'POST',
        headers: { origin: 'http://shop.test', 'user-agent': CHROME_AGENT, 'content-type': 'text/plain;charset=UTF-8' },
        body: new URLSearchParams({ key: 'pk-test-key', visit_id: '0', url: 'http://shop.test/contact', page_title: 'Contact', referer_url: '', phones: '0123456789' }).toString(),
      }).then((r) => r.json());
    const answers = [];
    for (let i = 0; i < LIMIT + 1; i++) answers.push(await door());
    expect(answers.slice(0, LIMIT).map((a) => a.surtaxPhones['0123456789'].surtaxPhoneNumber)).not.toContain('08.00.00.00.99');
    expect(answers[LIMIT]).toMatchObject({ status: 'OK', surtaxPhones: { '0123456789': { surtaxPhoneNumber: '08.00.00.00.99', surtaxPhoneCode: null } } });

    const day = new Date().toISOString().slice(0, 10);
    const report = await poolsReport(s.t.c, (await s.t.c.domains.findOne({ _id: 'shop.test' }))!, day, day);
    // 2 + 16 + 2 + 1 + 1 held back by the tests above and this one; none counted as an exhausted pool.
    expect(report.online.find((p) => p.type === 1)).toMatchObject({ heldBackFromOneAddress: 22, exhaustedHours: [] });
    const metrics = await (await fetch(`${s.collector.baseUrl}/metrics`, { headers: { authorization: 'Bearer metrics-key-of-the-test' } })).text();
    expect(metrics).toMatch(/ringtrail_warnings_total\{reason="address_limit"\} \d+/);
  });
});
