// Cookie consent in Chromium: with data-consent="pending" the tracker swaps numbers but writes no
// cookie and no storage, keeps the visit in memory across an SPA route change, and writes its
// cookies (the visit's, and the visitor's 13-month id it then sends) only once the page calls
// RingTrail.consent(true).
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { visitorContext } from '../helpers/chromium.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { sitePage } from '../helpers/test-site.ts';

const BODY = `<h1>Acme</h1><p>Call us: <span id="phone">01 23 45 67 89</span></p>
<button id="spa" onclick="history.pushState({}, '', '/pricing')">Pricing</button>
<button id="yes" onclick="RingTrail.consent(true)">Accept</button><button id="no" onclick="RingTrail.consent(false)">Refuse</button>`;

describe('tracker.js waiting for consent', () => {
  const b = useBrowserSite('e2e_consent', (origin) => trackingFixture({ allowedOrigins: [origin], exclusive: Array.from({ length: 10 }, (_, i) => `08000000${i + 10}`) }));

  /** Everything the page has written to the browser: its cookies and both storages. */
  const written = (page: Page) => page.evaluate(() => ({ cookie: document.cookie, local: localStorage.length, session: sessionStorage.length }));

  async function open(answer: 'yes' | 'no') {
    b.site.pages['/'] = sitePage(BODY, ' data-consent="pending"');
    const context = await visitorContext(b.browser);
    const page = await context.newPage();
    await page.goto(`${b.site.origin}/`);
    await page.waitForFunction(() => 'RingTrail' in window);
    await page.evaluate(() => (window as any).RingTrail.ready);
    const visitId = await page.evaluate(() => (window as any).RingTrail.visitId());
    expect(await page.locator('#phone').innerText()).toMatch(/^08 00 00 00 \d\d$/); // swapped all the same
    expect(await written(page)).toEqual({ cookie: '', local: 0, session: 0 });

    // An SPA route change is a new view of the same visit, still written nowhere.
    await page.click('#spa');
    await expect.poll(() => b.t.c.views.countDocuments({ visitId })).toBe(2);
    expect(await written(page)).toEqual({ cookie: '', local: 0, session: 0 });
    expect(await b.t.c.visits.countDocuments({ _id: visitId })).toBe(1);

    await page.click(`#${answer}`);
    return { page, context, visitId };
  }

  it('writes nothing before consent, keeps the visit in memory, and writes the cookie on consent', async () => {
    const { page, context, visitId } = await open('yes');
    expect(visitId).toBeGreaterThan(0);
    // The visit's id and its key (issue 79), which alone lets a next page go on with the visit.
    await expect.poll(async () => (await written(page)).cookie).toMatch(new RegExp(`^tracker_visit_id=${visitId}; tracker_visit_key=[A-Za-z0-9_-]{22}$`));
    // From now on the views carry the visitor's id, and its cookie is written; the earlier ones had none.
    await page.evaluate(() => history.pushState({}, '', '/contact'));
    await expect.poll(() => b.t.c.views.countDocuments({ visitId })).toBe(3);
    await expect.poll(async () => /tracker_visitor_id=([\w-]+)/.exec((await written(page)).cookie)?.[1]).toMatch(/^[0-9a-f-]{36}$/);
    const cookieId = /tracker_visitor_id=([\w-]+)/.exec((await written(page)).cookie)![1];
    expect((await b.t.c.visits.findOne({ _id: visitId }))!.uniqueVisitorId).toBe(cookieId); // the visit knows its visitor from then on
    await page.screenshot({ path: path.join(ARTIFACTS, 'consent-accepted.png') });
    await context.close();
  });

  it('keeps a visitor id for 13 months without a consent banner, the same on the next visit', async () => {
    b.site.pages['/'] = sitePage(BODY);
    const context = await visitorContext(b.browser);
    const first = await context.newPage();
    await first.goto(`${b.site.origin}/`);
    await first.evaluate(() => (window as any).RingTrail.ready);
    const visitId = await first.evaluate(() => (window as any).RingTrail.visitId());
    const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c]));
    expect(cookies.tracker_visitor_id!.value).toMatch(/^[0-9a-f-]{36}$/);
    const days = (cookies.tracker_visitor_id!.expires * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(394);
    expect(days).toBeLessThanOrEqual(395);
    expect(cookies.tracker_visit_id!.value).toBe(String(visitId));
    // A visit later (its cookie gone): a new visit, the same visitor.
    await context.clearCookies({ name: 'tracker_visit_id' });
    const second = await context.newPage();
    await second.goto(`${b.site.origin}/`);
    await second.evaluate(() => (window as any).RingTrail.ready);
    const nextVisit = await second.evaluate(() => (window as any).RingTrail.visitId());
    expect(nextVisit).not.toBe(visitId);
    const visits = await b.t.c.visits.find({ _id: { $in: [visitId, nextVisit] } }).toArray();
    expect(visits.map((v) => v.uniqueVisitorId)).toEqual([cookies.tracker_visitor_id!.value, cookies.tracker_visitor_id!.value]);
    await context.close();
  });

  it("sends GA4's cookies of the site with the view, so the visit knows the visitor's GA4 client and session, and never before consent", async () => {
    const context = await visitorContext(b.browser);
    const { hostname } = new URL(b.site.origin);
    await context.addCookies([
      { name: '_ga', value: 'GA1.1.1234567890.1712345678', domain: hostname, path: '/' },
      { name: '_ga_K4Q7ZP2M1X', value: 'GS2.1.s1712349999$o3$g1$t1712350100$j0$l0$h0', domain: hostname, path: '/' },
    ]);
    const visitOf = async (attributes = '') => {
      b.site.pages['/'] = sitePage(BODY, attributes);
      const page = await context.newPage();
      await page.goto(`${b.site.origin}/`);
      await page.evaluate(() => (window as any).RingTrail.ready);
      return b.t.c.visits.findOne({ _id: await page.evaluate(() => (window as any).RingTrail.visitId()) });
    };
    expect((await visitOf())!.ga).toEqual({ clientId: '1234567890.1712345678', sessionId: '1712349999' });
    await context.clearCookies({ name: 'tracker_visit_id' });
    expect((await visitOf(' data-consent="pending"'))!.ga).toBeUndefined();
    await context.close();
  });

  it('stays cookieless when the visitor refuses', async () => {
    const { page, context, visitId } = await open('no');
    await page.evaluate(() => history.pushState({}, '', '/about')); // and keeps working: another view, still nothing written
    await expect.poll(() => b.t.c.views.countDocuments({ visitId })).toBe(3);
    expect(await written(page)).toEqual({ cookie: '', local: 0, session: 0 });
    expect((await b.t.c.visits.findOne({ _id: visitId }))!.uniqueVisitorId).toBeNull(); // no visitor id sent either
    await context.close();
  });
});
