// The tag on markup as real small businesses' pages write it (issue 81), in Chromium: a number broken
// across lines inside its link, a spaced dash, the number in a link's aria-label and title and an
// image's alt, a licence and a street number left alone and never sent, and a tracking number whose
// groups differ from the site's written in the site's own style. Screenshot test-artifacts/real-markup.png.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { visitorContext } from '../helpers/chromium.ts';
import { sitePage } from '../helpers/test-site.ts';

const domain = (name: string, country: string, sitePhones: string[], pool: { type: number; numbers: string[] }, origin: string) => ({
  name, country, timeZone: country === 'US' ? 'America/Los_Angeles' : country === 'GB' ? 'Europe/London' : 'Europe/Paris', publicKey: `pk-${name}`, sitePhones, allowedOrigins: [origin], numbersPerAddress: 0,
  pools: [{ ...pool, usage: 'online' }],
});

const s = useBrowserSite('real_markup', (origin) => ({
  accounts: [
    {
      name: 'Small businesses',
      domains: [
        domain('plumber.test', 'US', ['(714) 225-1326'], { type: 100, numbers: ['(714) 555-0101', '(714) 555-0102'] }, origin),
        domain('boulangerie.test', 'FR', ['06 98 29 34 98'], { type: 36, numbers: ['06 11 22 33 01', '06 11 22 33 02'] }, origin),
        domain('london.test', 'GB', ['020 7946 0000'], { type: 102, numbers: ['07911 123401', '07911 123402'] }, origin),
      ],
    },
  ],
}));

/** A page of the site in a fresh browser; every body the tag posts, kept. */
async function visit(name: string, body: string) {
  s.site.pages[`/${name}`] = sitePage(body).replace('pk-test-key', `pk-${name}`);
  const context = await visitorContext(s.browser);
  const tab = await context.newPage();
  const posted: Record<string, string>[] = [];
  tab.on('request', (r) => r.method() === 'POST' && posted.push({ path: new URL(r.url()).pathname, ...Object.fromEntries(new URLSearchParams(r.postData() ?? '')) }));
  await tab.goto(`${s.site.origin}/${name}`);
  await tab.evaluate(() => (window as any).RingTrail.ready);
  return { tab, context, posted, text: (selector: string) => tab.locator(selector).innerText(), attr: (selector: string, name: string) => tab.locator(selector).getAttribute(name) };
}

describe("the tag on real sites' markup", () => {
  it('swaps a spaced dash, a number broken across lines in its link, and the labels a screen reader says; leaves a licence and a street number alone and unsent', async () => {
    const us = await visit(
      'plumber.test',
      `<header><a id="call" href="tel:+17142251326" aria-label="Call us at (714) 225-1326" title="Call (714) 225-1326">(714)
          225-1326</a></header>
       <p id="spaced">Emergency line: (714) 225 - 1326</p>
       <p><a href="tel:7142251326"><img id="icon" alt="Phone (714) 225-1326" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></a></p>
       <footer id="footer">CA Contractor Lic. #1045678 · 1600 Harbor Blvd, Suite 1200 · Costa Mesa</footer>`,
    );
    const number = /\(714\) 555-010[12]/;
    expect(await us.text('#call')).toMatch(/^\(714\) 555-010[12]$/);
    expect(await us.attr('#call', 'href')).toMatch(/^tel:\+1714555010[12]$/);
    expect(await us.attr('#call', 'aria-label')).toMatch(new RegExp(`^Call us at ${number.source}$`));
    expect(await us.attr('#call', 'title')).toMatch(new RegExp(`^Call ${number.source}$`));
    expect(await us.attr('#icon', 'alt')).toMatch(new RegExp(`^Phone ${number.source}$`));
    expect(await us.text('#spaced')).toMatch(/^Emergency line: \(714\) 555 - 010[12]$/);
    // The link dials the number its text shows.
    const shown = (await us.text('#call')).replace(/\D/g, '');
    expect((await us.attr('#call', 'href'))!.replace(/\D/g, '')).toBe(`1${shown}`);
    expect(await us.text('#footer')).toBe('CA Contractor Lic. #1045678 · 1600 Harbor Blvd, Suite 1200 · Costa Mesa');
    const view = us.posted.find((p) => p.path === '/t/view')!;
    expect(view.phones!.split(',')).not.toContain('1045678');
    expect(view.phones).not.toMatch(/1045678|1600|1200/);
    await us.tab.screenshot({ path: path.join(ARTIFACTS, 'real-markup.png') });
    await us.context.close();
  });

  it('reads a French number broken across a line inside its link as one number', async () => {
    const fr = await visit('boulangerie.test', `<p><a id="call" href="tel:0698293498">06 98 29 34
      98</a></p>`);
    const text = (await fr.text('#call')).replace(/\s+/g, ' ');
    expect(text).toMatch(/^06 11 22 33 0[12]$/);
    expect(await fr.attr('#call', 'href')).toBe(`tel:${text.replace(/ /g, '')}`);
    await fr.context.close();
  });

  it("writes a tracking number of other groups in the site's own style: its separator, none, or with +44 (0)", async () => {
    const uk = await visit('london.test', '<p id="dots">Call 020.7946.0000</p><p id="bare">Or 02079460000</p><p id="spaces">Office 020 7946 0000</p><p id="intl">+44 (0)20 7946 0000</p>');
    expect(await uk.text('#dots')).toMatch(/^Call 07911\.12340[12]$/);
    expect(await uk.text('#bare')).toMatch(/^Or 0791112340[12]$/);
    expect(await uk.text('#spaces')).toMatch(/^Office 07911 12340[12]$/);
    expect(await uk.text('#intl')).toMatch(/^\+44 \(0\)7911 12340[12]$/);
    await uk.context.close();
  });
});
