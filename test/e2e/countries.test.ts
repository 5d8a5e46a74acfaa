// tracker.js on sites of other countries (issue 24), in Chromium: a US site's and a UK site's phone
// written every way their people write it are swapped for one tracking number each, in the same
// layouts, beside a French site as before.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { visitorContext } from '../helpers/chromium.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { sitePage } from '../helpers/test-site.ts';

const numbers = (first: string, n: number) => Array.from({ length: n }, (_, i) => first.replace(/\d$/, String(i + 1)));

function fixture(origin: string) {
  const french = trackingFixture({ allowedOrigins: [origin] });
  const domain = (name: string, country: string, publicKey: string, sitePhone: string, pool: string[]) => ({ name, country, publicKey, allowedOrigins: [origin], sitePhones: [sitePhone], pools: [{ type: 100, usage: 'online', numbers: pool }] });
  french.accounts[0]!.domains.push(
    domain('chicago.test', 'US', 'pk-chicago-key', '(415) 555-0199', numbers('(415) 555-0140', 6)) as never,
    domain('london.test', 'GB', 'pk-london-key', '020 7946 0000', numbers('020 7946 0010', 6)) as never,
  );
  return french;
}

const page = (body: string, key: string) => sitePage(body).replace('pk-test-key', key);

describe('tracker.js on sites of other countries', () => {
  const b = useBrowserSite('e2e_countries', fixture);

  async function open(path_: string) {
    const context = await visitorContext(b.browser);
    const tab = await context.newPage();
    await tab.goto(`${b.site.origin}${path_}`);
    await tab.evaluate(() => (window as any).RingTrail.ready);
    return { tab, context, text: (id: string) => tab.locator(`#${id}`).innerText() };
  }

  it('swaps a US number written nationally, with +1, and with a leading 1, for one number in each layout', async () => {
    b.site.pages['/us'] = page('<h1>Chicago Plumbing</h1><p id="national">Call (415) 555-0199</p><p id="intl">From abroad: +1 415-555-0199</p><p id="one">Toll: 1-415-555-0199</p>', 'pk-chicago-key');
    const { tab, context, text } = await open('/us');
    const shown = /^Call \(415\) 555-014(\d)$/.exec(await text('national'));
    expect(shown).not.toBeNull();
    expect(await text('intl')).toBe(`From abroad: +1 415-555-014${shown![1]}`);
    expect(await text('one')).toBe(`Toll: 1-415-555-014${shown![1]}`);
    await tab.screenshot({ path: path.join(ARTIFACTS, 'countries-us.png') });
    await context.close();
  });

  it('swaps a UK number written nationally and with +44 for one number in each layout', async () => {
    b.site.pages['/uk'] = page('<h1>London Plumbing</h1><p id="national">Call 020 7946 0000</p><p id="intl">From abroad: +44 20 7946 0000</p>', 'pk-london-key');
    const { tab, context, text } = await open('/uk');
    const shown = /^Call 020 7946 001(\d)$/.exec(await text('national'));
    expect(shown).not.toBeNull();
    expect(await text('intl')).toBe(`From abroad: +44 20 7946 001${shown![1]}`);
    await tab.screenshot({ path: path.join(ARTIFACTS, 'countries-uk.png') });
    await context.close();
  });

  it('swaps a French number as before', async () => {
    b.site.pages['/fr'] = page('<h1>Paris Plomberie</h1><p id="national">Appelez le 01 23 45 67 89</p><p id="intl">De l’étranger : +33 1 23 45 67 89</p>', 'pk-test-key');
    const { context, text } = await open('/fr');
    const shown = /^Appelez le 08 00 00 00 0(\d)$/.exec(await text('national'));
    expect(shown).not.toBeNull();
    expect(await text('intl')).toBe(`De l’étranger : +33 8 00 00 00 0${shown![1]}`);
    await context.close();
  });
});
