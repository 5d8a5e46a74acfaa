// The back end in a real browser, as a new site owner meets it: sign up, add a domain and a pool,
// copy the script tag into a site on another loopback origin, a visitor comes from a search
// engine and calls; the overview, its chart, the calls log and the CSV show it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { visitorContext } from '../helpers/chromium.ts';
import { fillSignUp } from '../helpers/manage-ui.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const b = useBrowserSite('e2e_manage', null, { telephonyApiKey: TELEPHONY_KEY, demoPages: false });

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `manage-${name}.png`), fullPage: true });

describe('the back end in Chromium', () => {
  it('takes a new owner from sign-up to the first call on the overview, the calls log and the CSV', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const owner = await context.newPage();
    const errors: string[] = [];
    owner.on('pageerror', (err) => errors.push(err.message));
    owner.on('console', (msg) => msg.type() === 'error' && !msg.text().includes('401') && errors.push(msg.text()));

    // Sign up.
    await fillSignUp(owner, b.collector.baseUrl, 'Acme Plumbing', 'owner@acme.test');
    await shot(owner, '1-sign-up');
    await owner.getByRole('button', { name: 'Sign up' }).click();

    // The first domain, with the test site's origin.
    await owner.getByRole('heading', { name: 'Add your first domain' }).waitFor();
    await owner.getByLabel('Domain name').fill('acme.test');
    // Its own https addresses are proposed, with and without www.; the test site's is added by hand.
    expect(await owner.getByLabel('https://www.acme.test').isChecked()).toBe(true);
    await owner.getByLabel("The site's address (allowed origin)").fill(b.site.origin);
    await owner.getByLabel('Time zone of its reports').fill('UTC');
    await owner.getByRole('button', { name: 'Add the domain' }).click();
    await owner.getByRole('heading', { name: 'Settings of acme.test' }).waitFor();
    // The set-up guides through what is left, in order: addresses done; the tag is not ticked
    // before a page sent its first view, though its key was made with the domain.
    await owner.getByRole('heading', { name: 'Set up acme.test: 1 of 4 done' }).waitFor();
    expect(await owner.getByTestId('set-up').locator('li', { hasText: 'The tag, pasted' }).getAttribute('class')).not.toContain('done');

    // The site's number, a pool with two numbers.
    await owner.getByLabel("The site's phone numbers, one per line (the tracker swaps only these)").fill('01 23 45 67 89');
    await owner.getByRole('button', { name: 'Save' }).click();
    await owner.getByText('Saved.').waitFor();
    await owner.getByLabel('Pool type').selectOption('1');
    expect(await owner.getByLabel('Pool type').locator('option:checked').innerText()).toBe('1: 0800…, free to call');
    await owner.getByRole('button', { name: 'Add a pool' }).click();
    await owner.getByLabel('Numbers to add to type 1').fill('08 00 00 01 01, 01 23 45 67 00');
    await owner.getByText('01 23 45 67 00: not 0800… numbers').waitFor(); // checked as it is typed
    await owner.getByLabel('Numbers to add to type 1').fill('08 00 00 01 01, 0800000102');
    await owner.getByRole('button', { name: 'Add numbers' }).click();
    await owner.getByText('08 00 00 01 02').waitFor();
    const scriptTag = await owner.getByTestId('script-tag').innerText();
    expect(scriptTag).toMatch(new RegExp(`^<script async src="${b.collector.baseUrl}/tracker.js" data-key="rt_public_[\\w-]+"></script>$`));
    expect(await owner.getByTestId('last-view').innerText()).toContain('No view has arrived from the site yet.');
    await owner.getByRole('heading', { name: 'Set up acme.test: 3 of 4 done' }).waitFor();
    await shot(owner, '2-settings');

    // The tag, copied into a page of the site; a visitor comes from a search for "emergency plumber",
    // by a link of the site's spring campaign.
    b.site.pages['/'] = `<!doctype html><html><head><meta charset="utf-8"><title>Acme Plumbing</title>${scriptTag}</head>
      <body style="font:18px system-ui;margin:2rem"><h1>Acme Plumbing</h1><p>Call us: <span id="phone">01 23 45 67 89</span></p></body></html>`;
    const visitor = await (await visitorContext(b.browser)).newPage();
    await visitor.goto(`${b.site.origin}/?utm_campaign=spring-offers`, { referer: 'https://www.google.com/search?q=emergency+plumber' });
    await visitor.waitForFunction(() => /^08 00 00 01 0[12]$/.test(document.getElementById('phone')!.textContent!.trim()));
    const shown = (await visitor.locator('#phone').innerText()).replace(/\s/g, '');
    await visitor.screenshot({ path: path.join(ARTIFACTS, 'manage-3-site.png') });

    // The settings see the first view by themselves: the set-up is done and goes away.
    await owner.getByText('Views are arriving').waitFor();
    await owner.getByTestId('set-up').waitFor({ state: 'detached' });

    // The visitor calls the number shown.
    expect((await reportCall(b.collector.baseUrl, { callRef: 'e2e-call-1', trackingNumber: shown, startDate: new Date(), duration: 95 })).status).toBe(200);

    // The overview: one visit, one view, one call, 100 % of views turned into calls, from organic search.
    await owner.getByRole('link', { name: 'Overview' }).click();
    await owner.getByRole('button', { name: '7 days' }).click();
    const tile = (label: string) => owner.locator(`[data-tile="${label}"] strong`);
    await expect.poll(() => tile('Calls').innerText()).toBe('1');
    expect(await tile('Visits').innerText()).toBe('1');
    expect(await tile('Page views').innerText()).toBe('1');
    expect(await tile('Views → calls').innerText()).toBe('100.0%');
    expect(await tile('New callers').innerText()).toBe('1'); // the caller's first call
    expect(await tile('Leads').innerText()).toBe('1'); // answered, 95 s: a lead by the default rule
    const organic = owner.locator('tr', { hasText: 'Organic search' });
    expect(await organic.locator('td').allInnerTexts()).toEqual(['Organic search', '1', '1', '1', '1', '1', '1.00']); // visits, calls, new callers, leads, people who became leads, calls per visit
    expect(await tile('People who became leads').innerText()).toBe('1');
    expect(await owner.locator('tr', { hasText: 'emergency plumber' }).locator('td').allInnerTexts()).toEqual(['emergency plumber', '1', '1', '1', '1', '1.00']);
    // The campaign of the link and the page the visit landed on, each with its visit and call.
    expect(await owner.getByTestId('campaigns').locator('tbody tr').first().locator('td').allInnerTexts()).toEqual(['spring-offers', '1', '1', '1', '1', '1.00']);
    expect(await owner.getByTestId('landing-pages').locator('tbody tr').first().locator('td').allInnerTexts()).toEqual(['/', '1', '1', '1', '1', '1.00']);
    // The chart is drawn: uPlot's canvas has a size and a bar of today's call in it.
    const canvas = owner.getByTestId('calls-chart').locator('canvas');
    const drawn = await canvas.evaluate((c: HTMLCanvasElement) => {
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let blue = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 80 && data[i + 2]! > 200 && data[i + 3]! > 0) blue++;
      return { width: c.width, height: c.height, blue };
    });
    expect(drawn.width).toBeGreaterThan(300);
    expect(drawn.blue).toBeGreaterThan(50);
    // This period against the last: the week before had nothing, and the chart can overlay it.
    expect(await owner.locator('[data-tile="Calls"] .compared').innerText()).toBe('0 before (new)');
    await owner.getByLabel('Overlay the previous period').check();
    await owner.getByTestId('calls-chart').getByText('Calls, period before').waitFor();
    await shot(owner, '4-overview');

    // The calls log and its CSV.
    await owner.getByRole('link', { name: 'Calls' }).click();
    const row = owner.locator('tr[data-call]');
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[1]).toBe(shown.replace(/(\d\d)(?=\d)/g, '$1 '));
    expect(cells.slice(3, 6)).toEqual(['new', 'Answered\ncertain', '1 min 35 s']);
    expect(cells.slice(7)).toEqual(['organic:www.google.com\nemergency plumber', expect.stringContaining(`${b.site.origin}/`)]);
    const verdict = owner.getByLabel(`Verdict on call ${await row.getAttribute('data-call')}`);
    expect(await verdict.locator('option:checked').innerText()).toBe('lead (rule)'); // answered, 95 s
    // The log fits a 1280 px window: its card does not scroll sideways.
    expect(await owner.locator('table.calls').evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth)).toBe(true);
    await shot(owner, '5-calls');
    const [download] = await Promise.all([owner.waitForEvent('download'), owner.getByRole('link', { name: 'Download CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`,${shown},0611223344,`);
    expect(csv[1]).toContain(',SUCCESS,95,organic:www.google.com,emergency plumber,');

    // The owner says the call was spam: it is no lead any more, and its caller is blocked.
    await verdict.selectOption('spam');
    await row.getByRole('button', { name: 'unblock' }).waitFor();
    expect(await verdict.locator('option:checked').innerText()).toBe('Spam');
    await owner.getByLabel('Leads').selectOption('true');
    await owner.getByText('No call in this range.').waitFor();
    await owner.getByLabel('Leads').selectOption('');
    await row.waitFor();
    await shot(owner, '5b-spam');

    // The call's own page, opened from the log: what a person needs to understand the call.
    await row.getByTitle("The call's page").click();
    await owner.getByRole('heading', { name: 'Call from 06 11 22 33 44 new caller' }).waitFor();
    await owner.getByText('Certain: one visit held this number before the call').waitFor();
    await owner.getByText('said by owner@acme.test on').waitFor();
    expect(await owner.locator('ol.pages-seen li strong').allInnerTexts()).toEqual(['Acme Plumbing']);
    await shot(owner, '5c-call');

    // The pools report shows the number held now.
    await owner.getByRole('link', { name: 'Number pools' }).click();
    await expect.poll(() => owner.locator('.tile', { hasText: 'Held now' }).locator('strong').innerText()).toBe('1');
    await shot(owner, '6-pools');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says what "Allow this origin" did, or why it did not', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const owner = await context.newPage();
    await owner.goto(`${b.collector.baseUrl}/manage/`);
    await owner.getByLabel('E-mail').fill('owner@acme.test');
    await owner.getByLabel('Password').fill('a long enough password');
    await owner.getByRole('button', { name: 'Sign in' }).click();
    const publicKey = (await b.t.c.domains.findOne({ _id: 'acme.test' }))!.publicKey!;
    const refusedView = (origin: string) =>
      fetch(`${b.collector.baseUrl}/t/view`, { method: 'POST', headers: { origin, 'content-type': 'text/plain;charset=UTF-8' }, body: new URLSearchParams({ key: publicKey, visit_id: '0', url: `${origin}/`, page_title: 'Home', referer_url: '' }).toString() });
    expect((await refusedView('http://staging.acme.test:8081')).status).toBe(403);
    await owner.goto(`${b.collector.baseUrl}/manage/#/acme.test/settings`);
    const refused = owner.getByTestId('refused-origins');
    await refused.getByText('http://staging.acme.test:8081').waitFor();
    await refused.getByRole('button', { name: 'Allow this origin' }).click();
    await owner.getByTestId('allow-result').getByText("Allowed http://staging.acme.test:8081: its pages' views are taken from now on.").waitFor();
    await refused.waitFor({ state: 'detached' });
    expect((await refusedView('http://staging.acme.test:8081')).status).toBe(200);
    await shot(owner, '7-origin-allowed');

    // A domain with as many origins as it may have: the button says why it did nothing.
    const many = Array.from({ length: 100 }, (_, i) => `https://site${i}.acme.test`);
    await b.t.c.domains.updateOne({ _id: 'acme.test' }, { $set: { allowedOrigins: many } });
    expect((await refusedView('http://other.acme.test')).status).toBe(403);
    await owner.getByRole('button', { name: 'Check again' }).click();
    await refused.getByRole('button', { name: 'Allow this origin' }).click();
    await owner.getByTestId('allow-result').getByText('http://other.acme.test was not allowed: allowedOrigins: at most 100 origins').waitFor();
    await shot(owner, '8-origin-not-allowed');
    await context.close();
  });
});
