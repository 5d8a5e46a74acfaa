// A US site set up from the back end alone (issue 24), in Chromium: the guided set-up with the
// country US, a pool of our type 100, the tag on a page showing (415) 555-0199; a visitor sees a
// tracking number in the page's own layout, calls it through Twilio, and the overview, the calls log
// and the call's page show the call with the numbers written as Americans write them.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { visitorContext } from '../helpers/chromium.ts';
import { fillSignUp } from '../helpers/manage-ui.ts';
import { TWILIO_TOKEN, twilioPost } from '../helpers/telephony.ts';

const b = useBrowserSite('e2e_us_domain', null, { twilio: { authToken: TWILIO_TOKEN }, demoPages: false });

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `us-${name}.png`), fullPage: true });

describe('a US domain set up from the back end alone', () => {
  it('swaps (415) 555-0199 for a number of its type 100 pool, takes a call and shows it on the overview', async () => {
    // A browser in Chicago: the set-up proposes the US and dollars, and US pool types by name.
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'America/Chicago' });
    const owner = await context.newPage();
    const errors: string[] = [];
    owner.on('pageerror', (err) => errors.push(err.message));
    owner.on('console', (msg) => msg.type() === 'error' && !msg.text().includes('401') && errors.push(msg.text()));

    await fillSignUp(owner, b.collector.baseUrl, 'Bay Plumbing', 'owner@bayplumbing.test');
    await owner.getByRole('button', { name: 'Sign up' }).click();

    await owner.getByRole('heading', { name: 'Add your first domain' }).waitFor();
    await owner.getByLabel('Domain name').fill('bayplumbing.test');
    await owner.getByLabel("The site's address (allowed origin)").fill(b.site.origin);
    expect(await owner.getByLabel('Time zone of its reports').inputValue()).toBe('America/Chicago');
    await expect.poll(() => owner.getByLabel('Country of its phone numbers').inputValue()).toBe('US');
    expect(await owner.getByLabel('Currency of its sales').inputValue()).toBe('USD');
    await owner.getByLabel('Time zone of its reports').fill('America/Los_Angeles');
    await owner.getByRole('button', { name: 'Add the domain' }).click();
    await owner.getByRole('heading', { name: 'Set up bayplumbing.test: 1 of 4 done' }).waitFor();

    // The site's number as the site writes it; a pool of geographic numbers of the domain's country.
    await owner.getByLabel("The site's phone numbers, one per line (the tracker swaps only these)").fill('(415) 555-0199');
    await owner.getByRole('button', { name: 'Save' }).click();
    await owner.getByText('Saved.').waitFor();
    // Proposed first: the country's own types, in words.
    expect(await owner.getByLabel('Pool type').locator('option:checked').innerText()).toBe('Local numbers');
    expect((await owner.getByLabel('Pool type').locator('option').allInnerTexts()).slice(0, 3)).toEqual(['Local numbers', 'Toll-free numbers', 'Mobile numbers']);
    await owner.getByRole('button', { name: 'Add a pool' }).click();
    await owner.getByRole('heading', { name: 'Local numbers, online' }).waitFor();
    await owner.getByLabel('Numbers to add to type 100').fill('(415) 555-0141, 415-555-0142');
    await owner.getByRole('button', { name: 'Add numbers' }).click();
    // Listed as Americans write them, the site's number too.
    await owner.getByText('(415) 555-0142').waitFor();
    expect(await owner.getByLabel("The site's phone numbers, one per line (the tracker swaps only these)").inputValue()).toBe('(415) 555-0199');
    await owner.getByRole('heading', { name: 'Set up bayplumbing.test: 3 of 4 done' }).waitFor();
    const scriptTag = await owner.getByTestId('script-tag').innerText();
    await shot(owner, '1-settings');

    // The tag on the site's page; a visitor from a Google Ads click.
    b.site.pages['/'] = `<!doctype html><html><head><meta charset="utf-8"><title>Bay Plumbing</title>${scriptTag}</head>
      <body style="font:18px system-ui;margin:2rem"><h1>Bay Plumbing</h1><p>Call us: <a id="phone" href="tel:+14155550199">(415) 555-0199</a></p></body></html>`;
    const visitor = await (await visitorContext(b.browser)).newPage();
    await visitor.goto(`${b.site.origin}/?gclid=us-click-1&utm_source=google&utm_medium=cpc&utm_term=water+heater`, { referer: 'https://www.google.com/' });
    await visitor.waitForFunction(() => /^\(415\) 555-014[12]$/.test(document.getElementById('phone')!.textContent!.trim()));
    const shown = (await visitor.locator('#phone').innerText()).trim();
    expect(await visitor.locator('#phone').getAttribute('href')).toBe(`tel:+1${shown.replace(/\D/g, '')}`);
    await visitor.screenshot({ path: path.join(ARTIFACTS, 'us-2-site.png') });
    await owner.getByTestId('set-up').waitFor({ state: 'detached' });

    // The visitor calls the number shown, through Twilio: forwarded to the site's number in E.164.
    const to = `+1${shown.replace(/\D/g, '')}`;
    const voice = await twilioPost(b.collector.baseUrl, '/voice', { CallSid: 'CA-us-1', From: '+14155550100', To: to, CallStatus: 'ringing' });
    expect(voice.text).toContain('<Number>+14155550199</Number>');
    await twilioPost(b.collector.baseUrl, '/dial', { CallSid: 'CA-us-1', From: '+14155550100', To: to, CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: '95' });
    await twilioPost(b.collector.baseUrl, '/status', { CallSid: 'CA-us-1', From: '+14155550100', To: to, CallStatus: 'completed', CallDuration: '101' });

    await owner.getByRole('link', { name: 'Overview' }).click();
    const tile = (label: string) => owner.locator(`[data-tile="${label}"] strong`);
    await expect.poll(() => tile('Calls').innerText()).toBe('1');
    expect(await tile('Visits').innerText()).toBe('1');
    expect(await owner.locator('tr', { hasText: 'water heater' }).locator('td').first().innerText()).toBe('water heater');
    await shot(owner, '3-overview');

    await owner.getByRole('link', { name: 'Calls' }).click();
    const row = owner.locator('tr[data-call]');
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[1]).toBe(shown);
    expect(cells[2]).toContain('(415) 555-0100');
    // Dates as Americans write them, in the domain's zone.
    expect(cells[0]).toMatch(/^\d\d\/\d\d\/\d{4}, \d{1,2}:\d\d (AM|PM)$/);
    await shot(owner, '4-calls');
    await row.getByTitle("The call's page").click();
    await owner.getByRole('heading', { name: 'Call from (415) 555-0100 new caller' }).waitFor();
    await owner.getByText('forwarded to (415) 555-0199').waitFor();
    await shot(owner, '5-call');
    expect(errors).toEqual([]);
    await context.close();
  });
});
