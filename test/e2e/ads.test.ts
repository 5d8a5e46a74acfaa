// Conversions sent to the ad platforms, end to end (issue 56): a visitor lands in Chromium from an
// ad with a gclid, an msclkid and an fbclid, their page granting ads consent (Google's consent mode
// in its dataLayer), and calls the number shown through Twilio (signed webhooks); the call is a lead
// and goes, through the collector restarted in between while the platforms are down, to Google's
// Data Manager API, Microsoft Advertising and Meta's Conversions API (loopback stand-ins): once
// each, their fields and hashes checked. A visitor who denied ad storage calls too: nothing of theirs
// is sent. Then the Conversions screen and the call's page in Chromium.
// Screenshots test-artifacts/ads-*.png.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppOptions } from '../../collector/src/app.ts';
import { BATCH_WINDOW_MS } from '../../collector/src/ads/ads-queue.ts';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { visitorContext } from '../helpers/chromium.ts';
import { startCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { startDataManager, type DataManagerStandIn } from '../helpers/google-data-manager.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { startMetaCapi, type MetaStandIn } from '../helpers/meta-capi.ts';
import { startMicrosoftAds, type MicrosoftStandIn } from '../helpers/microsoft-ads.ts';
import { TWILIO_TOKEN, twilioPost } from '../helpers/telephony.ts';
import { sitePage } from '../helpers/test-site.ts';
import { until } from '../helpers/until.ts';

const OWNER = { username: 'owner@shop.test', password: 'ads e2e password' };
const ACCOUNT_SID = 'AC00000000000000000000000000000056';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let google: DataManagerStandIn;
let microsoft: MicrosoftStandIn;
let meta: MetaStandIn;
beforeAll(async () => {
  [google, microsoft, meta] = await Promise.all([startDataManager(), startMicrosoftAds(), startMetaCapi()]);
});
afterAll(async () => {
  await Promise.all([google?.close(), microsoft?.close(), meta?.close()]);
});

const options: Omit<AppOptions, 'db' | 'log'> = {
  twilio: { authToken: TWILIO_TOKEN },
  secretsKey: randomBytes(32),
  delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 400, publicOnly: false },
  get adsEndpoints() {
    return { googleDataManager: google.base, microsoftAds: microsoft.base, microsoftOAuthToken: microsoft.tokenUrl, metaGraph: meta.base };
  },
};

/** A page of the site that tells Google's consent mode the visitor's answer, as gtag does. */
const consentPage = (adStorage: 'granted' | 'denied') =>
  sitePage(`<script>window.dataLayer = window.dataLayer || []; function gtag() { dataLayer.push(arguments); }
gtag('consent', 'default', { ad_storage: '${adStorage}', ad_user_data: '${adStorage}', analytics_storage: 'granted' });</script>
<h1>Acme plumbing</h1><p>Call us: <a id="phone" href="tel:0123456789">01 23 45 67 89</a></p>`);

describe('a lead sent to Google, Microsoft and Meta', () => {
  const b = useBrowserSite('e2e_ads', (origin) => trackingFixture({ allowedOrigins: [origin], users: [OWNER], exclusive: ['0800000561', '0800000562', '0800000563'] }), options);
  let owner: ManageClient;

  /** A visitor lands on `path` with `query`; answers the page, its visit and the number it shows (E.164). */
  async function land(path: string, query: string): Promise<{ page: Page; visitId: number; number: string }> {
    const page = await (await visitorContext(b.browser)).newPage();
    await page.goto(`${b.site.origin}${path}?${query}`, { referer: 'https://www.google.com/' });
    await page.waitForFunction(() => document.getElementById('phone')!.textContent !== '01 23 45 67 89');
    const visitId = await page.evaluate(() => (window as unknown as { RingTrail: { visitId(): number } }).RingTrail.visitId());
    const shown = (await page.locator('#phone').textContent())!.replace(/\D/g, '');
    return { page, visitId, number: `+33${shown.slice(1)}` };
  }

  /** The call through Twilio, signed as Twilio signs: ringing, answered two minutes, ended. */
  async function call(callSid: string, to: string, from: string): Promise<void> {
    const base = { AccountSid: ACCOUNT_SID, CallSid: callSid, From: from, To: to, Direction: 'inbound', ApiVersion: '2010-04-01' };
    expect((await twilioPost(b.collector.baseUrl, '/voice', { ...base, CallStatus: 'ringing' })).status).toBe(200);
    expect((await twilioPost(b.collector.baseUrl, '/dial', { ...base, CallStatus: 'in-progress', DialCallSid: `${callSid}-leg`, DialCallStatus: 'completed', DialCallDuration: '120', DialBridged: 'true' })).status).toBe(200);
    expect((await twilioPost(b.collector.baseUrl, '/status', { ...base, CallStatus: 'completed', CallDuration: '126' })).status).toBe(200);
  }

  const states = async (callId: number) => Object.fromEntries((await b.t.c.adsConversions.find({ kind: 'call', itemId: callId }).toArray()).map((doc) => [doc.platform, doc.state]));

  beforeAll(async () => {
    owner = await signedInClient(b.collector.baseUrl, OWNER.username, OWNER.password);
    const connect = async (platform: string, body: unknown) => expect((await owner.call('PUT', `/domains/shop.test/ads/${platform}`, body)).status).toBe(200);
    await connect('google', { operatingAccountId: '123-456-7890', conversionActionId: '987654321', serviceAccountKey: JSON.stringify(google.key) });
    await connect('microsoft', { customerId: '1111', accountId: '2222', conversionName: 'Phone leads', developerToken: 'dev-token', oauth: { clientId: 'client-1', refreshToken: microsoft.refreshToken } });
    await connect('meta', { datasetId: '1234567890', accessToken: meta.token });
  });

  it('sends a signed Twilio call from a visit with three click ids once to each platform, across a restart while they are down', async () => {
    b.site.pages['/landing'] = consentPage('granted');
    const visitor = await land('/landing', 'gclid=E2E-GCLID&msclkid=E2E-MSCLKID&fbclid=E2E-FBCLID');
    // The page granted ads consent: tracker-ads.js said so to the collector.
    await until(async () => (await b.t.c.visits.findOne({ _id: visitor.visitId }))?.adsDenied === false, 'the consent kept on the visit');

    google.down = microsoft.down = meta.down = true;
    await call('CA-ads-lead', visitor.number, '+33611223344');
    const lead = (await b.t.c.calls.findOne({ callRef: 'CA-ads-lead' }))!;
    expect(lead).toMatchObject({ lead: true, gclid: 'E2E-GCLID', msclkid: 'E2E-MSCLKID', fbclid: 'E2E-FBCLID', visitId: visitor.visitId });
    // Each platform was tried and refused (503): the leads wait in the outbox.
    await until(async () => (await b.t.c.deliveryLog.distinct('label', { kind: 'ads' })).length === 3, 'each platform tried', { timeoutMs: 3 * BATCH_WINDOW_MS });
    expect(await states(lead._id)).toEqual({ google: 'queued', microsoft: 'queued', meta: 'queued' });

    // The collector stops; another starts on the same database, and the platforms answer again.
    await b.collector.close();
    b.collector = await startCollector(b.t.db, options);
    b.site.collector = b.collector.baseUrl;
    google.down = microsoft.down = meta.down = false;
    await until(async () => Object.values(await states(lead._id)).every((state) => state === 'sent'), 'the lead sent to the three');

    const transaction = `ringtrail-call-${lead._id}`;
    const googleEvents = google.requests.filter((r) => !r.body.validateOnly).flatMap((r) => r.body.events).filter((e) => e.transactionId === transaction);
    expect(googleEvents).toEqual([
      { transactionId: transaction, eventTimestamp: lead.startedAt.toISOString(), adIdentifiers: { gclid: 'E2E-GCLID' }, userData: { userIdentifiers: [{ phoneNumber: sha256('+33611223344') }] }, conversionValue: lead.revenue ?? 0, currency: 'EUR', eventSource: 4 },
    ]);
    const microsoftConversions = microsoft.requests.flatMap((r) => r.body.OfflineConversions).filter((c) => c.MicrosoftClickId === 'E2E-MSCLKID');
    expect(microsoftConversions).toEqual([
      { ConversionCurrencyCode: 'EUR', ConversionName: 'Phone leads', ConversionTime: `${lead.startedAt.toISOString().slice(0, 19)}Z`, ConversionValue: lead.revenue ?? 0, MicrosoftClickId: 'E2E-MSCLKID', HashedPhoneNumber: sha256('+33611223344') },
    ]);
    const metaEvents = meta.requests.filter((r) => !r.body.test_event_code).flatMap((r) => r.body.data).filter((e) => e.event_id === transaction);
    expect(metaEvents).toEqual([
      { event_name: 'Lead', event_time: Math.floor(lead.startedAt.getTime() / 1000), event_id: transaction, action_source: 'phone_call', user_data: { ph: [sha256('33611223344')], fbc: `fb.1.${lead.lastTouch!.at.getTime()}.E2E-FBCLID` }, custom_data: { value: lead.revenue ?? 0, currency: 'EUR' } },
    ]);
    await visitor.page.context().close();
  });

  it("sends nothing of a visitor who denied ad storage, and says why", async () => {
    b.site.pages['/denied'] = consentPage('denied');
    const visitor = await land('/denied', 'gclid=E2E-DENIED&msclkid=E2E-DENIED&fbclid=E2E-DENIED');
    await until(async () => (await b.t.c.visits.findOne({ _id: visitor.visitId }))?.adsDenied === true, 'the refusal kept on the visit');
    await call('CA-ads-denied', visitor.number, '+33622334455');
    const lead = (await b.t.c.calls.findOne({ callRef: 'CA-ads-denied' }))!;
    expect(lead).toMatchObject({ lead: true, adsDenied: true });
    await until(async () => Object.keys(await states(lead._id)).length === 3, 'the lead marked for the three');
    const docs = await b.t.c.adsConversions.find({ kind: 'call', itemId: lead._id }).toArray();
    expect(docs.map((d) => [d.platform, d.state, d.reason]).sort()).toEqual([
      ['google', 'not-sent', 'no consent: the visitor denied ad storage'],
      ['meta', 'not-sent', 'no consent: the visitor denied ad storage'],
      ['microsoft', 'not-sent', 'no consent: the visitor denied ad storage'],
    ]);
    // The visitor accepts on the banner later (gtag's update): the visit says so from then on.
    await visitor.page.evaluate(() => (window as unknown as { gtag(...args: unknown[]): void }).gtag('consent', 'update', { ad_storage: 'granted', ad_user_data: 'granted' }));
    await until(async () => (await b.t.c.visits.findOne({ _id: visitor.visitId }))?.adsDenied === false, 'the later consent kept');
    expect(JSON.stringify([google.requests, microsoft.requests, meta.requests])).not.toContain('E2E-DENIED');
    await visitor.page.context().close();
  });

  it('shows each lead\'s state per platform on the Conversions screen and on the call\'s page', async () => {
    const page = await (await b.browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    await signIn(page, b.collector.baseUrl, OWNER);
    await page.getByRole('link', { name: 'Conversions' }).click();
    const table = page.getByTestId('conversions');
    await table.locator('tbody tr').first().waitFor();
    // Two leads on three platforms, newest first.
    expect(await table.locator('tbody tr').count()).toBe(6);
    expect(await table.locator('tbody .status.state-not-sent').count()).toBe(3);
    expect(await table.locator('tbody .status.state-sent').count()).toBe(3);
    await expect.poll(() => page.getByTestId('ads-google').innerText()).toContain('Connected');
    // Each platform's card counts its leads by state.
    for (const platform of ['google', 'microsoft', 'meta']) {
      expect(await page.getByTestId(`ads-${platform}`).locator('.counts a').allInnerTexts()).toEqual(['sent 1', 'not-sent 1']);
    }
    await page.screenshot({ path: path.join(ARTIFACTS, 'ads-conversions.png'), fullPage: true });

    // The test button: Google's answer shown.
    await page.getByTestId('ads-google').getByRole('button', { name: 'Send a test' }).click();
    await page.getByTestId('ads-google').getByText('google took the test event').waitFor();

    // Filtered by state, then the call's page.
    await page.getByLabel('State').selectOption('not-sent');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3);
    const lead = (await b.t.c.calls.findOne({ callRef: 'CA-ads-lead' }))!;
    await page.goto(`${b.collector.baseUrl}/manage/#/shop.test/call?id=${lead._id}`);
    const card = page.getByTestId('ads-conversions');
    await card.waitFor();
    expect(await card.innerText()).toMatch(/Google Ads\s+sent/);
    expect(await card.innerText()).toMatch(/Microsoft Advertising\s+sent/);
    expect(await card.innerText()).toMatch(/Meta\s+sent/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'ads-call-page.png'), fullPage: true });

    // The settings screen has the same cards: a test sent from there, Meta's answer shown.
    await page.getByRole('link', { name: 'Settings' }).click();
    const settings = page.locator('#ad-platforms');
    await settings.getByTestId('ads-meta').getByRole('button', { name: 'Send a test' }).click();
    await settings.getByTestId('ads-meta').getByText('meta took the test event').waitFor();
    expect(meta.requests.at(-1)!.body.test_event_code).toBe('RINGTRAIL_TEST');
    await settings.screenshot({ path: path.join(ARTIFACTS, 'ads-settings.png') });
  });
});
