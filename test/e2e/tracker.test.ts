// End to end in a real browser: Debian's chromium, a site on one loopback origin, the collector on
// another, the embedded database behind it.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { launchChromium, visitorContext } from '../helpers/chromium.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { sitePage, startTestSite, type TestSite } from '../helpers/test-site.ts';

const ARTIFACTS = path.resolve('test-artifacts');
const CONTACT = `
  <h1>Acme Plumbing</h1>
  <p id="text">Call us: 01 23 45 67 89</p>
  <p id="intl">From abroad: +33 1 23 45 67 89</p>
  <p><a id="link" href="tel:0123456789">Call now</a></p>
  <p id="other">Supplier: 05 55 55 55 55</p>
  <p id="late"></p>`;

let site: TestSite;
let t: TestDatabase;
let collector: RunningCollector;
let browser: Browser;

beforeAll(async () => {
  site = await startTestSite();
  t = await testDatabase('e2e');
  await seed(t.c, trackingFixture({ allowedOrigins: [site.origin], exclusive: Array.from({ length: 20 }, (_, i) => `08000000${i + 10}`) }));
  collector = await startCollector(t.db);
  site.collector = collector.baseUrl;
  site.pages = {
    '/contact': sitePage(CONTACT),
    '/about': sitePage(CONTACT.replace('Acme Plumbing', 'About Acme')),
    '/quote': sitePage(CONTACT, ' data-display="click"'),
  };
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
  await site?.close();
  await t?.close();
});

async function open(page: Page, pathname: string): Promise<void> {
  await page.goto(site.origin + pathname);
  await page.waitForFunction(() => 'RingTrail' in window);
  await page.evaluate(() => (window as any).RingTrail.ready);
}

const text = (page: Page, selector: string) => page.locator(selector).innerText();
const numberOf = async (visitId: number) => (await t.c.leases.findOne({ visitId, phone: '0123456789' }, { sort: { assignedAt: -1 } }))!.number;

describe('tracker.js in Chromium', () => {
  it('swaps the numbers in text and links, keeps the visit in its cookie, and the next page keeps visit and number', async () => {
    const context = await visitorContext(browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await open(page, '/contact');

    const visitId = await page.evaluate(() => (window as any).RingTrail.visitId());
    const number = await numberOf(visitId);
    const pairs = number.match(/\d\d/g)!;
    expect(await text(page, '#text')).toBe(`Call us: ${pairs.join(' ')}`);
    expect(await text(page, '#intl')).toBe(`From abroad: +33 ${number[1]} ${pairs.slice(1).join(' ')}`);
    expect(await page.locator('#link').getAttribute('href')).toBe(`tel:${number}`);
    expect(await text(page, '#other')).toBe('Supplier: 05 55 55 55 55');
    await page.screenshot({ path: path.join(ARTIFACTS, 'tracker-direct.png') });

    const [cookie] = (await context.cookies()).filter((c) => c.name === 'tracker_visit_id');
    expect(cookie).toMatchObject({ value: String(visitId), sameSite: 'Lax', secure: false, path: '/' });
    expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(cookie!.expires * 1000 - Date.now()).toBeLessThanOrEqual(30 * 60_000 + 1000);

    await open(page, '/about');
    expect(await page.evaluate(() => (window as any).RingTrail.visitId())).toBe(visitId);
    expect(await text(page, '#text')).toBe(`Call us: ${pairs.join(' ')}`);
    expect(await t.c.views.find({ visitId }).map((v) => v.url).toArray()).toEqual([`${site.origin}/contact`, `${site.origin}/about`]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('swaps a number the page adds after load', async () => {
    const context = await visitorContext(browser);
    const page = await context.newPage();
    await open(page, '/contact');
    await page.evaluate(() => (document.getElementById('late')!.textContent = 'After-sales: 09 87 65 43 21'));
    await expect.poll(() => text(page, '#late')).toMatch(/^After-sales: 08 00 00 00 \d\d$/);
    await context.close();
  });

  it('in click display, reveals a number on click and stores the click with its view', async () => {
    const context = await visitorContext(browser);
    const page = await context.newPage();
    await open(page, '/quote');
    expect(await text(page, '#text')).toBe('Call us: Show number');
    const visitId = await page.evaluate(() => (window as any).RingTrail.visitId());
    expect(await t.c.leases.countDocuments({ visitId })).toBe(0);

    await page.locator('#text a').click();
    await expect.poll(() => text(page, '#text')).not.toContain('Show number');
    const number = await numberOf(visitId);
    expect(await text(page, '#text')).toBe(`Call us: ${number.match(/\d\d/g)!.join(' ')}`);
    const view = (await t.c.views.findOne({ visitId }))!;
    expect(await t.c.clicks.findOne({ viewId: view._id })).toMatchObject({ kind: 'click', visitId, phone: '0123456789' });
    await page.screenshot({ path: path.join(ARTIFACTS, 'tracker-click.png') });
    await context.close();
  });

  it('keeps the original numbers when the collector is stopped', async () => {
    const stopped = await startCollector(t.db);
    const base = stopped.baseUrl;
    await stopped.close();
    site.pages['/down'] = sitePage(CONTACT, ` data-collector="${base}"`);
    const context = await visitorContext(browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await open(page, '/down');
    expect(await text(page, '#text')).toBe('Call us: 01 23 45 67 89');
    expect(await page.locator('#link').getAttribute('href')).toBe('tel:0123456789');
    expect((await context.cookies()).filter((c) => c.name === 'tracker_visit_id')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
