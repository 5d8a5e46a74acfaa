// A full pool in Chromium: the visitor it has no number for sees the pool's overflow number.
import { describe, expect, it } from 'vitest';
import { useBrowserSite } from '../helpers/browser-site.ts';
import { visitorContext } from '../helpers/chromium.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { sitePage } from '../helpers/test-site.ts';

describe('tracker.js and a full pool, in Chromium', () => {
  const b = useBrowserSite('e2e_overflow', (origin) => {
    const fixture = trackingFixture({ allowedOrigins: [origin], exclusive: ['0800000001'] });
    Object.assign(fixture.accounts[0]!.domains[0]!.pools[0]!, { overflowNumber: '0800000099' });
    return fixture;
  });

  it('shows the first visitor a pool number and the second the overflow number', async () => {
    b.site.pages['/'] = sitePage('<p>Call us: <a id="phone" href="tel:0123456789">01 23 45 67 89</a></p>');
    const shown: string[] = [];
    for (let i = 0; i < 2; i++) {
      const context = await visitorContext(b.browser);
      const page = await context.newPage();
      await page.goto(`${b.site.origin}/`);
      await page.waitForFunction(() => 'RingTrail' in window);
      await page.evaluate(() => (window as any).RingTrail.ready);
      shown.push(`${await page.locator('#phone').innerText()} ${await page.locator('#phone').getAttribute('href')}`);
      await context.close();
    }
    expect(shown).toEqual(['08 00 00 00 01 tel:0800000001', '08 00 00 00 99 tel:0800000099']);
  });
});
