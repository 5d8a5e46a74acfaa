// The back end on a 390-px-wide phone, in Chromium: every screen of the navigation reachable, and
// no screen wider than the phone (a wide table scrolls inside its own card, never the whole page).
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@phone.test', password: 'phone owner password' };
const b = useBrowserSite('e2e_phone', (origin) => trackingFixture({ users: [OWNER], allowedOrigins: [origin] }), { telephonyApiKey: TELEPHONY_KEY, demoPages: false });

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `phone-${name}.png`), fullPage: true });

/** How much wider than the phone the page is (0: not at all). A phone's browser would zoom out to
 * the page's width: measured against the phone's, not the window's. */
const overflow = (page: Page) => page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - 390));

/** What sticks out past the phone's right edge (issue 52): a cell, a badge or a field wider than its
 * card, which the page's own width does not show when the card clips it; a wide table that scrolls
 * inside its own card is not counted. */
const sticksOut = (page: Page) =>
  page.evaluate(() => {
    const scrolls = (el: Element | null): boolean => !!el && (['auto', 'scroll'].includes(getComputedStyle(el).overflowX) || scrolls(el.parentElement));
    return [...document.querySelectorAll('.content *')]
      .filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > 390.5 && !scrolls(el.parentElement))
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}: ${(el.textContent ?? '').trim().slice(0, 40)}`);
  });

describe('the back end on a phone', () => {
  it('reaches every screen from the navigation and never scrolls the page sideways', async () => {
    await reportCall(b.collector.baseUrl, { callRef: 'phone-1', trackingNumber: '0800000001', startDate: new Date(), duration: 42 });
    // What fills the screens a team looked at: a blocked caller, a long call path, a refused origin.
    await reportCall(b.collector.baseUrl, { callRef: 'phone-2', trackingNumber: '0800000002', startDate: new Date(), duration: 75, callerPhone: '0612345678', status: 'NORESPONSE' });
    await b.t.c.blockedCallers.insertOne({ _id: 'shop.test|0698765432', domainId: 'shop.test', number: '0698765432', addedAt: new Date(), addedBy: 'owner@phone.test' } as never);
    await fetch(`${b.collector.baseUrl}/t/view`, { method: 'POST', headers: { origin: 'https://a-very-long-subdomain-of-a-site-nobody-allowed.example.com', 'content-type': 'application/x-www-form-urlencoded' }, body: 'key=pk-test-key&visit_id=0&url=https%3A%2F%2Fshop.test%2F&page_title=x&referer_url=&phones=' });
    const context = await b.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(`${b.collector.baseUrl}/manage/`);
    await page.getByLabel('E-mail').fill(OWNER.username);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const links = page.locator('.top nav a, .top .who a');
    const names = await links.allInnerTexts();
    expect(names).toEqual(expect.arrayContaining(['Overview', 'Calls', 'Number pools', 'Agents', 'Call flows', 'Settings', 'Activity', 'Members', 'Account']));
    // Each link whole on the screen: nothing cut off at its edge.
    for (const box of await links.evaluateAll((all) => all.map((a) => a.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(390);
    }
    for (const [name, heading] of [['Overview', 'Overview'], ['Calls', 'Calls'], ['Number pools', 'Number pools'], ['Call flows', 'Call flows'], ['Settings', 'Settings of shop.test'], ['Activity', 'Activity'], ['Members', 'Members of Test account'], ['Account', 'Account Test account']] as const) {
      await page.locator('.top').getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
      expect([name, await sticksOut(page)]).toEqual([name, []]);
      expect([name, await overflow(page)]).toEqual([name, 0]);
      await shot(page, name.toLowerCase().replace(' ', '-'));
    }
    await context.close();
  }, 120_000);
});
