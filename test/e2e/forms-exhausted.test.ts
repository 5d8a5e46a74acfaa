// A team's finding of issue 52, in Chromium: a site whose pool has run out still captures its forms.
// Before, the tag loaded its form capture only with an OK answer, and an exhausted pool answers a
// WARNING (the site's own numbers stay): every form sent then was lost.
// Screenshot test-artifacts/forms-exhausted.png.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { visitorContext } from '../helpers/chromium.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { sitePage } from '../helpers/test-site.ts';

const FORM = `<h1>Acme plumbing</h1><p>Call us: <span id="phone">01 23 45 67 89</span></p>
<form id="contact" name="contact" action="/thanks" method="post">
  <label>E-mail <input name="email" type="email"></label>
  <label>Message <textarea name="message"></textarea></label>
  <button id="send">Send</button>
</form>`;

describe('a pool run out', () => {
  // One tracking number, held by another visitor below: the pool is exhausted for this page.
  const b = useBrowserSite('e2e_forms_exhausted', (origin) => trackingFixture({ allowedOrigins: [origin], exclusive: ['0800000001'], settings: { formTracking: { enabled: true, fields: [] } } }));

  it('leaves the site its own number, and still captures its forms', async () => {
    const other = await fetch(`${b.collector.baseUrl}/ospView`, { method: 'POST', body: new URLSearchParams(Object.entries(viewParams({ ip: '198.51.100.80', expiration: 600 })).map(([k, v]) => [k, String(v)])) });
    expect(((await other.json()) as { surtaxPhones: Record<string, unknown> }).surtaxPhones['0123456789']).toBeDefined();

    b.site.pages['/contact'] = sitePage(FORM);
    b.site.pages['/thanks'] = '<!doctype html><title>Thanks</title><p>Thanks</p>';
    const page = await (await visitorContext(b.browser)).newPage();
    const answered = page.waitForResponse((res) => res.url().endsWith('/t/view'));
    await page.goto(`${b.site.origin}/contact?utm_source=google&utm_medium=cpc&gclid=EXHAUSTED-1`, { referer: 'https://www.google.com/' });
    expect(await (await answered).json()).toMatchObject({ status: 'WARNING', forms: [] });
    await page.locator('#contact [name=rt_hp]').waitFor({ state: 'attached' });
    expect(await page.textContent('#phone')).toBe('01 23 45 67 89');
    await page.fill('[name=email]', 'still@example.com');
    await page.fill('[name=message]', 'Your numbers ran out, my form did not');
    await page.screenshot({ path: path.join(ARTIFACTS, 'forms-exhausted.png'), fullPage: true });
    await page.waitForFunction(() => performance.now() > 2100);
    await page.click('#send');
    await page.waitForURL(/\/thanks$/);
    await expect.poll(() => b.t.c.forms.countDocuments({ email: 'still@example.com' }), { timeout: 10_000 }).toBe(1);
    expect(await b.t.c.forms.findOne({ email: 'still@example.com' })).toMatchObject({ gclid: 'EXHAUSTED-1', source: 'paid:google', lead: true });
  });
});
