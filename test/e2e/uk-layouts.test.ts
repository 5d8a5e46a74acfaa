// The tracker outside France, in Chromium (issue 39): `+44 (0)20 7946 0000`, a common UK form, keeps
// its layout; a tracking number of another area code (Manchester's 0161 for London's 020) is written
// in its own national grouping, never forced into the site phone's. Screenshot test-artifacts/uk-layouts.png.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { visitorContext } from '../helpers/chromium.ts';
import { sitePage } from '../helpers/test-site.ts';

const domain = (name: string, numbers: string[], origin: string) => ({
  name, country: 'GB', timeZone: 'Europe/London', publicKey: `pk-${name}`, sitePhones: ['020 7946 0000'], allowedOrigins: [origin], numbersPerAddress: 0,
  pools: [{ type: 100, usage: 'online', numbers }],
});

const s = useBrowserSite('uk_layouts', (origin) => ({
  accounts: [{ name: 'UK', domains: [domain('london.test', ['020 7946 0001', '020 7946 0002'], origin), domain('manchester.test', ['0161 496 0006', '0161 496 0007'], origin)] }],
}));

async function visit(name: string, body: string) {
  s.site.pages[`/${name}`] = sitePage(body).replace('pk-test-key', `pk-${name}`);
  const context = await visitorContext(s.browser);
  const tab = await context.newPage();
  await tab.goto(`${s.site.origin}/${name}`);
  await tab.evaluate(() => (window as any).RingTrail.ready);
  return { tab, context, text: (id: string) => tab.locator(`#${id}`).innerText() };
}

describe('UK numbers on the page', () => {
  it('keep the +44 (0) layout, and a number of another area code is written in its own grouping', async () => {
    const london = await visit('london.test', '<p id="bracket">From abroad: +44 (0)20 7946 0000</p><p id="national">Call 020 7946 0000</p>');
    expect(await london.text('bracket')).toMatch(/^From abroad: \+44 \(0\)20 7946 000[12]$/);
    expect(await london.text('national')).toMatch(/^Call 020 7946 000[12]$/);
    await london.context.close();

    const manchester = await visit('manchester.test', '<p id="national">Call 020 7946 0000</p><p id="intl">From abroad: +44 20 7946 0000</p><p id="bracket">Or: +44 (0)20 7946 0000</p><p><a id="link" href="tel:+442079460000">Ring us</a></p>');
    expect(await manchester.text('national')).toMatch(/^Call 0161 496 000[67]$/);
    expect(await manchester.text('intl')).toMatch(/^From abroad: \+44 161 496 000[67]$/);
    // The page's "+44 (0)" layout, in Manchester's grouping (issue 52).
    expect(await manchester.text('bracket')).toMatch(/^Or: \+44 \(0\)161 496 000[67]$/);
    // A link's href keeps its digits, now the tracking number's.
    expect(await manchester.tab.locator('#link').getAttribute('href')).toMatch(/^tel:\+4416149600[0-9]{2}$/);
    await manchester.tab.screenshot({ path: path.join(ARTIFACTS, 'uk-layouts.png') });
    await manchester.context.close();
  });
});
