// tracker.js in direct display, loaded by a page from a real collector on the real database.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { openPage, settle, SITE_ORIGIN } from '../helpers/site-page.ts';

const POOL = Array.from({ length: 40 }, (_, i) => `08000000${String(i + 10)}`);
const s = useSeededCollector('tracker_direct', trackingFixture({ exclusive: POOL }));

const SITE_PAGE = `
  <p id="text">Call 01 23 45 67 89 today</p>
  <p id="intl">or +33 (0)1 23 45 67 89</p>
  <p id="other-site-phone">After-sales 09.87.65.43.21</p>
  <p id="not-ours">Supplier 05 55 55 55 55</p>
  <a id="link" href="tel:+33123456789">Call us</a>
  <script type="application/ld+json">{"telephone": "01 23 45 67 89"}</script>`;

const trackingOf = async (visitId: number, phone: string) => (await s.t.c.leases.findOne({ visitId, phone }, { sort: { assignedAt: -1 } }))!.number;
const spaced = (digits: string) => digits.match(/\d\d/g)!.join(' ');

describe('tracker.js in direct display', () => {
  it("swaps the site's numbers in text and tel: links, each in the site's own format, and nothing else", async () => {
    const page = await openPage({ collector: s.collector.baseUrl, body: SITE_PAGE });
    await page.ready();
    const visitId = page.window.RingTrail.visitId();
    const main = await trackingOf(visitId, '0123456789');
    const afterSales = await trackingOf(visitId, '0987654321');
    expect(main).not.toBe(afterSales);
    expect(page.text('#text')).toBe(`Call ${spaced(main)} today`);
    expect(page.text('#intl')).toBe(`or +33 (0)${main.slice(1, 2)} ${spaced(main.slice(2))}`);
    expect(page.text('#other-site-phone')).toBe(`After-sales ${afterSales.match(/\d\d/g)!.join('.')}`);
    expect(page.text('#not-ours')).toBe('Supplier 05 55 55 55 55');
    expect(page.document.querySelector('#link')!.getAttribute('href')).toBe(`tel:+33${main.slice(1)}`);
    expect(page.document.querySelector('script[type="application/ld+json"]')!.textContent).toContain('01 23 45 67 89');
    expect(page.errors).toEqual([]);
    page.close();
  });

  it('records the view with its page, referrer, the connection ip and user agent, and only the site phones', async () => {
    const page = await openPage({ collector: s.collector.baseUrl, body: SITE_PAGE, url: `${SITE_ORIGIN}/contact?utm_source=news&utm_medium=email` });
    await page.ready();
    const view = await s.t.c.views.findOne({ visitId: page.window.RingTrail.visitId() });
    expect(view).toMatchObject({
      url: `${SITE_ORIGIN}/contact?utm_source=news&utm_medium=email`,
      pageTitle: 'Contact',
      ip: '127.0.0.1',
      userAgent: expect.stringContaining('Chrome/'),
      isBot: false,
      isMobile: false,
      directDisplay: true,
      nrPhones: 2,
      phones: ['0123456789', '0987654321'],
      attribution: { source: 'referral', sourceName: 'news' },
    });
    page.close();
  });

  it('keeps the visit in a tracker_visit_id cookie of 30 minutes, SameSite=Lax, renewed by the next page', async () => {
    const first = await openPage({ collector: s.collector.baseUrl, body: SITE_PAGE });
    await first.ready();
    const visitId = first.window.RingTrail.visitId();
    const cookie = first.dom.cookieJar.getCookiesSync(SITE_ORIGIN).find((c) => c.key === 'tracker_visit_id');
    expect(cookie).toMatchObject({ key: 'tracker_visit_id', value: String(visitId), sameSite: 'lax', secure: false, path: '/' });
    // Its lifetime, whether written as Expires or Max-Age.
    expect(cookie!.TTL()).toBeGreaterThan(29 * 60_000);
    expect(cookie!.TTL()).toBeLessThanOrEqual(30 * 60_000);
    const shown = first.text('#text');
    const cookieJar = first.dom.cookieJar;
    first.close();

    const second = await openPage({ collector: s.collector.baseUrl, body: SITE_PAGE, url: `${SITE_ORIGIN}/about`, cookieJar });
    await second.ready();
    expect(second.window.RingTrail.visitId()).toBe(visitId);
    expect(second.text('#text')).toBe(shown); // the same visit keeps the same number
    expect(await s.t.c.views.countDocuments({ visitId })).toBe(2);
    second.close();
  });

  it('marks the cookies Secure on https pages', async () => {
    const page = await openPage({ collector: s.collector.baseUrl, body: SITE_PAGE, url: 'https://shop.test/contact' });
    await page.ready();
    const cookies = page.dom.cookieJar.getCookiesSync('https://shop.test');
    expect(cookies.map((c) => [c.key, c.secure]).sort()).toEqual([['tracker_visit_id', true], ['tracker_visit_key', true], ['tracker_visitor_id', true]]);
    page.close();
  });

  it('records a view for a page without phone numbers too', async () => {
    const before = await s.t.c.views.countDocuments();
    const page = await openPage({ collector: s.collector.baseUrl, body: '<p>About us</p>' });
    await page.ready();
    expect(await s.t.c.views.countDocuments()).toBe(before + 1);
    expect(page.window.RingTrail.visitId()).toBeGreaterThan(0);
    page.close();
  });

  it('swaps a number added to the page later, and records it as a late display, not a click', async () => {
    const page = await openPage({ collector: s.collector.baseUrl, body: '<p id="late"></p>' });
    await page.ready();
    page.document.querySelector('#late')!.textContent = 'Call 01 23 45 67 89';
    const visitId = page.window.RingTrail.visitId();
    await expect.poll(() => page.text('#late')).not.toContain('01 23 45 67 89');
    expect(page.text('#late')).toBe(`Call ${spaced(await trackingOf(visitId, '0123456789'))}`);
    expect(await s.t.c.clicks.findOne({ visitId })).toMatchObject({ kind: 'display', phone: '0123456789' });
    page.close();
  });

  it('records a new view of the same visit on an SPA route change', async () => {
    const page = await openPage({ collector: s.collector.baseUrl, body: SITE_PAGE });
    await page.ready();
    const visitId = page.window.RingTrail.visitId();
    page.window.history.pushState({}, '', '/checkout');
    await expect.poll(() => s.t.c.views.countDocuments({ visitId })).toBe(2);
    const spaView = await s.t.c.views.findOne({ visitId, url: `${SITE_ORIGIN}/checkout` });
    expect(spaView).toMatchObject({ referrer: `${SITE_ORIGIN}/contact` });
    page.window.history.back();
    await expect.poll(() => s.t.c.views.countDocuments({ visitId })).toBe(3);
    await settle();
    expect(page.errors).toEqual([]);
    page.close();
  });

  it('offers shop pages a ready promise and the visit id', async () => {
    const page = await openPage({ collector: s.collector.baseUrl, body: SITE_PAGE });
    await page.ready();
    const cookie = page.document.cookie.match(/tracker_visit_id=(\d+)/)![1];
    expect(page.window.RingTrail.visitId()).toBe(Number(cookie));
    page.close();
  });
});
