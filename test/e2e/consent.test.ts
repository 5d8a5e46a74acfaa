// Cookie consent in Chromium: with data-consent="pending" the tracker swaps numbers but writes no
// cookie and no storage, keeps the visit in memory across an SPA route change, and writes its
// cookie only once the page calls RingTrail.consent(true).
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
    await expect.poll(async () => (await written(page)).cookie).toBe(`tracker_visit_id=${visitId}`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'consent-accepted.png') });
    await context.close();
  });

  it('stays cookieless when the visitor refuses', async () => {
    const { page, context, visitId } = await open('no');
    await page.evaluate(() => history.pushState({}, '', '/about')); // and keeps working: another view, still nothing written
    await expect.poll(() => b.t.c.views.countDocuments({ visitId })).toBe(3);
    expect(await written(page)).toEqual({ cookie: '', local: 0, session: 0 });
    await context.close();
  });
});
