// A site owner sets up call handling in the back end, in Chromium: the no-answer redirect and its
// hours, the whisper, an offline number's redirect, and blocked callers, from Settings and from the
// calls log. What they set is what /telephony/route then answers.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { reportCall, routeCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const USER = { username: 'owner@shop.test', password: 'owner-password-1' };
const b = useBrowserSite('e2e_call_handling', () => trackingFixture({ users: [USER], timeZone: 'Europe/Paris' }), { telephonyApiKey: TELEPHONY_KEY });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `call-handling-${name}.png`), fullPage: true });

describe('call handling in the back end', () => {
  it('sets the redirect, the whisper, an offline number’s redirect and the blocklist, and the route follows', async () => {
    const view = await b.collector.post('/ospView', viewParams({ url: 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_term=boiler' }));
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    const spam = await reportCall(b.collector.baseUrl, { callRef: 'spam-1', trackingNumber: number, startDate: new Date(), callerPhone: '0699887766', duration: 3 });

    const page = await (await b.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${b.collector.baseUrl}/manage/`);
    await page.getByLabel('E-mail').fill(USER.username);
    await page.getByLabel('Password').fill(USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in once the navigation shows; going elsewhere before would race the session cookie.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings of shop.test' }).waitFor();

    const calls = page.getByTestId('call-handling');
    await calls.getByLabel('When nobody answers, redirect to').fill('06 11 00 00 00');
    await calls.getByLabel('after ringing (s)').fill('15');
    await calls.getByLabel("Redirect unanswered calls to the website's numbers", { exact: false }).check();
    await calls.getByLabel('Redirect only at these times', { exact: false }).fill('bogus');
    await calls.getByRole('button', { name: 'Update call handling' }).click();
    await calls.getByText('"bogus" is not a day and hours').waitFor();
    expect(await calls.getByLabel('When nobody answers, redirect to').inputValue()).toBe('06 11 00 00 00'); // a refused save keeps what was typed
    await calls.getByLabel('Redirect only at these times', { exact: false }).fill('mon-sun 00:00-24:00');
    await calls.getByLabel('Whisper', { exact: false }).check();
    await calls.getByRole('button', { name: 'Update call handling' }).click();
    await calls.getByText('Saved.').waitFor();
    // The fields start again from what was stored (the number normalized); the confirmation stays.
    await expect.poll(() => calls.getByLabel('When nobody answers, redirect to').inputValue()).toBe('0611000000');
    expect(await calls.getByText('Saved.').isVisible()).toBe(true);
    expect((await routeCall(b.collector.baseUrl, { tracking_number: number })).body).toMatchObject({
      redirect: { destination: '0611000000', afterSeconds: 15 },
      whisper: 'Call from Google Ads, keyword boiler',
    });

    // An offline number: assigned with its redirect on, from the pools.
    await page.getByLabel('Where 0100000001 forwards').fill('01 44 55 66 77');
    await page.getByLabel('Campaign of 0100000001').fill('leaflet');
    await page.locator('li', { has: page.getByLabel('Campaign of 0100000001') }).getByLabel('redirect if unanswered').check();
    await page.locator('li', { has: page.getByLabel('Campaign of 0100000001') }).getByRole('button', { name: 'Assign' }).click();
    await page.getByLabel('When 0100000001 redirects').fill('mon-fri 08:00-20:00');
    await page.locator('li', { has: page.getByLabel('When 0100000001 redirects') }).getByRole('button', { name: 'Set redirect' }).click();
    await expect.poll(async () => (await b.t.c.offlineAssignments.findOne({ _id: '0100000001' }))?.timetable.length).toBe(5);
    await expect.poll(() => page.getByLabel('When 0100000001 redirects').inputValue()).toBe('mon-fri 08:00-20:00');
    expect(await page.getByLabel('Redirect 0100000001 if unanswered').isChecked()).toBe(true);

    // A caller blocked by hand in Settings.
    const blocklist = page.getByTestId('blocked-callers');
    await blocklist.getByLabel('Number to block').fill('+33 7 00 00 00 01');
    await blocklist.getByRole('button', { name: 'Block' }).click();
    await blocklist.getByText('07 00 00 00 01').waitFor();
    await shot(page, '1-settings');

    // The spam caller, blocked from the calls log.
    await page.getByRole('link', { name: 'Calls', exact: true }).click();
    const row = page.locator(`tr[data-call="${spam.body.callId}"]`);
    // Asked first (issue 69): dismissed, nothing is blocked; accepted, the caller is.
    const asked: string[] = [];
    page.once('dialog', (dialog) => (asked.push(dialog.message()), dialog.dismiss()));
    await row.getByRole('button', { name: 'block' }).click();
    await expect.poll(() => asked).toEqual(['Block 06 99 88 77 66? Their next calls are refused and logged as blocked.']);
    expect((await routeCall(b.collector.baseUrl, { tracking_number: number, caller_phone: '0699887766' })).body.reason).not.toBe('blocked');
    page.once('dialog', (dialog) => dialog.accept());
    await row.getByRole('button', { name: 'block' }).click();
    await row.getByRole('button', { name: 'unblock' }).waitFor();
    expect((await routeCall(b.collector.baseUrl, { tracking_number: number, caller_phone: '0699887766' })).body).toMatchObject({ reason: 'blocked', destination: null });
    await reportCall(b.collector.baseUrl, { callRef: 'spam-2', trackingNumber: number, startDate: new Date(), callerPhone: '0699887766' });
    await page.reload();
    await page.getByRole('cell', { name: 'Blocked caller' }).waitFor();
    await shot(page, '2-calls-log');

    await page.getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => page.getByTestId('blocked-callers').locator('tbody tr').count()).toBe(2);
    expect(await page.getByTestId('blocked-callers').innerText()).toContain(USER.username);
    expect(errors).toEqual([]);
  });
});
