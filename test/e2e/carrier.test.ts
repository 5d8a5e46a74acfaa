// Numbers wired by the carrier's API, in Chromium (issue 42): a new owner connects their Twilio
// account (a loopback stand-in of Twilio's REST API, reached through TWILIO_API_BASE by the official
// library), looks at what is on sale, buys two numbers into a pool in one action, and a visitor of
// the site sees one of them swapped in; the numbers are wired to the collector at Twilio.
// Screenshots test-artifacts/carrier-*.png.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { visitorContext } from '../helpers/chromium.ts';
import { fillSignUp } from '../helpers/manage-ui.ts';
import { standInAccount, startTwilioApi } from '../helpers/twilio-api.ts';

const SID = 'AC77777777777777777777777777777777';
const TOKEN = 'twilio-token-of-the-e2e-account';
const api = await startTwilioApi([standInAccount(SID, TOKEN, { friendlyName: 'Bay Plumbing calls', available: { US: { Local: ['+14155550161', '+14155550162', '+14155550163', '+16505550164'] } } })]);
afterAll(() => api.close());

const b = useBrowserSite('e2e_carrier', null, { demoPages: false, secretsKey: randomBytes(32), twilioApiBase: api.base });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `carrier-${name}.png`), fullPage: true });

describe('numbers bought through the carrier', () => {
  it('connects a Twilio account, buys two numbers into a pool, and a visitor sees one swapped in', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'America/Los_Angeles' });
    const owner = await context.newPage();
    const errors: string[] = [];
    owner.on('pageerror', (err) => errors.push(err.message));

    await fillSignUp(owner, b.collector.baseUrl, 'Bay Plumbing', 'owner@bayplumbing.test');
    await owner.getByRole('button', { name: 'Sign up' }).click();
    await owner.getByRole('heading', { name: 'Add your first domain' }).waitFor();
    await owner.getByLabel('Domain name').fill('bayplumbing.test');
    await owner.getByLabel("The site's address (allowed origin)").fill(b.site.origin);
    await expect.poll(() => owner.getByLabel('Country of its phone numbers').inputValue()).toBe('US');
    await owner.getByRole('button', { name: 'Add the domain' }).click();
    await owner.getByLabel("The site's phone numbers, one per line (the tracker swaps only these)").fill('(415) 555-0199');
    await owner.getByRole('button', { name: 'Save' }).click();
    await owner.getByText('Saved.').waitFor();
    await owner.getByRole('button', { name: 'Add a pool' }).click();
    await owner.getByRole('heading', { name: 'Local numbers, online' }).waitFor();
    const scriptTag = await owner.getByTestId('script-tag').innerText();

    // The Account screen: connect the Twilio account.
    await owner.getByRole('link', { name: 'Account' }).click();
    const card = owner.locator('#carrier');
    await card.getByLabel('Twilio Account SID').fill(SID);
    await card.getByLabel('Auth token').fill('not-the-token');
    await card.getByRole('button', { name: 'Connect' }).click();
    await card.getByText('Twilio refused the credentials (wrong or revoked): Authenticate (Twilio error 20003)').waitFor();
    await card.getByLabel('Auth token').fill(TOKEN);
    await card.getByRole('button', { name: 'Connect' }).click();
    await card.getByText('Connected to').waitFor();
    expect(await card.innerText()).toContain('Bay Plumbing calls');
    expect(await card.innerText()).not.toContain(TOKEN);
    await card.screenshot({ path: path.join(ARTIFACTS, 'carrier-1-connected.png') });

    // Settings, Number pools: what is on sale in 415, then two bought in one action.
    await owner.goto(`${b.collector.baseUrl}/manage/#/bayplumbing.test/settings`);
    const pool = owner.locator('.pool[data-pool="100"]');
    await pool.getByLabel('Area code for type 100').fill('415');
    await pool.getByRole('button', { name: 'See what is on sale' }).click();
    await pool.getByText('On sale now: +14155550161, +14155550162, +14155550163').waitFor();
    await pool.getByLabel('How many numbers to buy for type 100').fill('2');
    await pool.getByRole('button', { name: 'Buy numbers…' }).click();
    // Nothing is bought by one click (issue 81): Twilio's monthly price and the total first.
    await pool.getByTestId('confirm-buy').getByText('Buy 2 numbers at $1.15 a month each: $2.30 a month in all').waitFor();
    expect(api.accounts.get(SID)!.numbers).toEqual([]);
    await pool.getByRole('button', { name: 'Confirm: buy 2 for $2.30 a month' }).click();
    await pool.getByText('+14155550162: done').waitFor();
    await pool.locator('ul.numbers li', { hasText: '(415) 555-0162' }).waitFor();
    await pool.screenshot({ path: path.join(ARTIFACTS, 'carrier-2-bought.png') });
    // Bought at Twilio, and wired to the collector there (this test's collector has no PUBLIC_URL:
    // the address it listens at).
    const voiceUrl = `${b.collector.baseUrl}/telephony/twilio/voice`;
    expect(api.accounts.get(SID)!.numbers.map((n) => [n.phone_number, n.voice_url])).toEqual([['+14155550161', voiceUrl], ['+14155550162', voiceUrl]]);

    // The tag on the site's page: a visitor sees one of the bought numbers.
    b.site.pages['/'] = `<!doctype html><html><head><meta charset="utf-8"><title>Bay Plumbing</title>${scriptTag}</head>
      <body style="font:18px system-ui;margin:2rem"><h1>Bay Plumbing</h1><p>Call us: <a id="phone" href="tel:+14155550199">(415) 555-0199</a></p></body></html>`;
    const visitor = await (await visitorContext(b.browser)).newPage();
    await visitor.goto(`${b.site.origin}/?utm_source=google&utm_medium=cpc`, { referer: 'https://www.google.com/' });
    await visitor.waitForFunction(() => /^\(415\) 555-016[12]$/.test(document.getElementById('phone')!.textContent!.trim()));
    await visitor.screenshot({ path: path.join(ARTIFACTS, 'carrier-3-site.png') });
    await shot(owner, '4-settings');

    // Back on the Account screen: the Twilio account's numbers, each in its pool, their calls coming here.
    await owner.getByRole('link', { name: 'Account' }).click();
    // Each number as Americans write it, its pool by name (issue 81).
    await card.locator('tr', { hasText: '(415) 555-0162' }).getByText('bayplumbing.test, Local numbers').waitFor();
    expect(await card.locator('tr', { hasText: '(415) 555-0161' }).locator('td').nth(2).innerText()).toBe('here');
    await card.getByRole('button', { name: 'Check now' }).click();
    await card.getByText('2 numbers checked: their calls all come here.').waitFor();
    await card.screenshot({ path: path.join(ARTIFACTS, 'carrier-5-numbers.png') });
    expect(errors).toEqual([]);
    await context.close();
  });
});
