// Mails as a person reads them (issue 40): a missed call alert and the weekly summary, received by a
// real SMTP server on loopback and opened in Chromium with scripts off, as a mail client shows
// HTML; screenshots in test-artifacts/ (mail-missed-call.png, mail-weekly-summary.png).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { SummarySender } from '../../collector/src/alerts/summary-sender.ts';
import { Outbox } from '../../collector/src/webhooks/outbox.ts';
import { Mailing } from '../../collector/src/alerts/mailing.ts';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { startSmtp, type Inbox } from '../helpers/smtp.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'mail e2e owner password' };

let t: TestDatabase;
let inbox: Inbox;
let collector: RunningCollector;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  inbox = await startSmtp();
  t = await testDatabase('e2e_mail');
  await seed(t.c, trackingFixture({ users: [OWNER], timeZone: 'Europe/Paris' }));
  collector = await startCollector(t.db, { telephonyApiKey: TELEPHONY_KEY, delivery: { pollMs: 50, publicOnly: false }, mail: { smtpUrl: inbox.url, from: 'RingTrail <calls@shop.test>' }, publicUrl: 'https://calls.shop.test' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
  await t?.close();
  await inbox?.close();
});

/** The mail's HTML in a page without scripts, as a mail client shows it. */
async function opened(html: string, width: number) {
  const page = await browser.newPage({ viewport: { width, height: 700 }, javaScriptEnabled: false });
  await page.setContent(html);
  return page;
}

describe('mails in a browser', () => {
  it('shows a missed call alert and the weekly summary readably, on a wide screen and a phone', async () => {
    const view = await collector.post('/ospView', viewParams({ url: 'https://shop.test/', referer_url: 'https://www.google.com/search?q=boiler+repair' }));
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    await reportCall(collector.baseUrl, { callRef: 'e2e-missed', trackingNumber: number, startDate: new Date(), status: 'NORESPONSE', duration: 0 });
    const [alert] = await inbox.received(1);
    const alertPage = await opened(String(alert!.html), 390);
    await alertPage.getByText('Nobody answered').waitFor();
    expect(await alertPage.getByText('a Google search, keyword boiler repair').isVisible()).toBe(true);
    // Nothing wider than the phone.
    expect(await alertPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await alertPage.screenshot({ path: path.join(ARTIFACTS, 'mail-missed-call.png'), fullPage: true });

    // The report reads (and writes) the counters the summary reads.
    await (await signedInClient(collector.baseUrl, OWNER.username, OWNER.password)).get('/domains/shop.test/reports/overview');
    const [address] = await new SummarySender(new Mailing(t.c, new Outbox(t.c), 'https://calls.shop.test')).send((await t.c.domains.findOne({ _id: 'shop.test' }))!, 'week', 'owners and chosen', new Date(Date.now() + 7 * 86_400_000));
    expect(address).toBe(OWNER.username);
    const [, summary] = await inbox.received(2);
    const summaryPage = await opened(String(summary!.html), 800);
    await summaryPage.getByText('Weekly summary of shop.test', { exact: true }).waitFor();
    expect(await summaryPage.getByText(/^1 \(0 before, new\)$/).count()).toBeGreaterThan(0);
    // The chart's bars are drawn: seven days, today's taller than the empty ones.
    const bars = await summaryPage.locator('td[title] div').evaluateAll((divs) => divs.map((d) => (d as HTMLElement).getBoundingClientRect().height));
    expect(bars).toHaveLength(7);
    expect(Math.max(...bars)).toBeGreaterThan(Math.min(...bars));
    await summaryPage.screenshot({ path: path.join(ARTIFACTS, 'mail-weekly-summary.png'), fullPage: true });
  });
});
