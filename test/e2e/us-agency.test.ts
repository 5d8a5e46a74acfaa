// What a US agency tripped over (issue 69), tried as it was: a US domain's numbers written as
// Americans write them in each of the five places that still wrote French pairs or raw digits (the
// /ospView and /t/view answers, the chat message, the rule preview, the blocked callers, the
// activity log), a chat webhook's secret kept from analysts, and the back end on a 390-px phone.
// Screenshots in test-artifacts/us-agency-*.png.
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { browserPost } from '../helpers/site-page.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@bayplumbing.test', password: 'us agency owner password' };
const ANALYST = { username: 'analyst@bayplumbing.test', password: 'us agency analyst password', role: 'analyst', domains: ['bayplumbing.test'] };
const DOMAIN = 'bayplumbing.test';
const SLACK_SECRET = 'T0RINGTR/B0AGENCY/x9SecretTokenQz7W';

const s = useSeededCollector(
  'e2e_us_agency',
  {
    accounts: [{
      name: 'Bay Agency',
      users: [OWNER, ANALYST],
      domains: [{
        name: DOMAIN, apiKey: 'bay-api-key', publicKey: 'bay-public-key', country: 'US', currency: 'USD', timeZone: 'America/Los_Angeles', callerPrivacy: 'none',
        allowedOrigins: ['https://bayplumbing.test'], sitePhones: ['4155550199'], displayMode: 'direct', numbersPerAddress: 0,
        pools: [{ type: 100, usage: 'online', numbers: ['4155550105', '4155550106'] }],
      }],
    }],
  },
  { telephonyApiKey: TELEPHONY_KEY, delivery: { publicOnly: false } },
);

let receiver: Receiver;
let browser: Browser;
let owner: ManageClient;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  receiver = await startReceiver();
  browser = await launchChromium();
  owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

const chatUrl = () => receiver.url(`/services/${SLACK_SECRET}`);
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `us-agency-${name}.png`), fullPage: true });

describe('a US agency', () => {
  let tracking = '';

  it('is answered (415) 555-0105 by /ospView and /t/view, and /ospExpiration reads it back', async () => {
    const view = await s.collector.post('/ospView', { api_key: 'bay-api-key', visit_id: 0, ip: '203.0.113.40', url: 'https://bayplumbing.test/', page_title: 'Home', is_mobile: false, referer_url: '', nr_phones: 1, direct_display: true, phones: '(415) 555-0199' });
    expect(view.body).toMatchObject({ status: 'OK', surtaxPhones: { '(415) 555-0199': { surtaxPhoneNumber: '(415) 555-0105', surtaxPhoneCode: null } } });
    tracking = view.body.surtaxPhones['(415) 555-0199'].surtaxPhoneNumber;
    expect((await s.collector.post('/ospExpiration', { api_key: 'bay-api-key', surtax_phone: tracking, expiration: 1800 })).body).toMatchObject({ status: 'OK' });

    // The browser door answers in the form the page wrote the site phone in.
    const fields = { key: 'bay-public-key', visit_id: 0, url: 'https://bayplumbing.test/', page_title: 'Home', referer_url: '' };
    const national = await (await browserPost(s.collector.baseUrl, '/t/view', { ...fields, phones: '(415) 555-0199' }, 'https://bayplumbing.test')).json();
    expect(national.surtaxPhones['(415) 555-0199'].surtaxPhoneNumber).toBe('(415) 555-0106');
    const withCode = await (await browserPost(s.collector.baseUrl, '/t/view', { ...fields, phones: '+1 415 555 0199' }, 'https://bayplumbing.test')).json();
    // Both numbers are held: the same visitor's own number again, in the international form.
    expect(withCode.status === 'OK' ? withCode.surtaxPhones['+1 415 555 0199'].surtaxPhoneNumber : withCode.status).toMatch(/^\+1 415 555 010[56]$|^WARNING$/);
  });

  it('writes the caller (408) 555-0125 in the chat message and the rule preview, and keeps the webhook secret from analysts', async () => {
    const rule = await owner.call('POST', `/domains/${DOMAIN}/rules`, { name: 'Every call', moment: 'call-ended', match: 'all', conditions: [], actions: [{ type: 'chat', url: chatUrl() }] });
    expect(rule.status).toBe(201);
    const call = await reportCall(s.collector.baseUrl, { callRef: 'us-agency-1', trackingNumber: tracking, startDate: new Date(), callerPhone: '4085550125', duration: 95 });
    expect(call.status, JSON.stringify(call.body)).toBe(200);
    const [chat] = await receiver.waitFor(1, (r) => r.path.startsWith('/services/'));
    expect(JSON.parse(chat!.body).text).toContain('matched a call from (408) 555-0125 (95 s)');

    const preview = await owner.call('POST', `/domains/${DOMAIN}/rules/${rule.body.id}/preview`);
    expect(preview.body.matches[0]).toMatchObject({ kind: 'call', phone: '(408) 555-0125' });

    // The owner, who edits rules, reads the webhook whole; an analyst its host and last four characters.
    expect((await owner.get(`/domains/${DOMAIN}/rules`)).body.rules[0].actions[0].url).toBe(chatUrl());
    const analyst = await signedInClient(s.collector.baseUrl, ANALYST.username, ANALYST.password);
    const read = await analyst.get(`/domains/${DOMAIN}/rules`);
    expect(read.status).toBe(200);
    expect(read.body.rules[0].actions[0]).toEqual({ type: 'chat', url: `${new URL(chatUrl()).host} …Qz7W` });
    expect(JSON.stringify(read.body)).not.toContain('x9SecretToken');
    // Never in the activity log.
    const activity = await owner.get(`/domains/${DOMAIN}/activity`);
    expect(activity.body.entries.map((e: { action: string }) => e.action)).toContain('rule.create');
    expect(JSON.stringify(activity.body)).not.toContain('x9SecretToken');
  });

  it('shows the blocked caller, the activity log and the rule preview in US formats, in Chromium, within 390 px', async () => {
    const { from, to } = daysAroundNow();
    const calls = await owner.get(`/domains/${DOMAIN}/reports/calls?from=${from}&to=${to}`);
    expect(calls.status, JSON.stringify(calls.body)).toBe(200);
    const callId = calls.body.calls[0].callId;
    expect((await owner.call('POST', `/domains/${DOMAIN}/calls/${callId}/block-caller`)).status).toBe(200);
    expect((await owner.call('POST', `/domains/${DOMAIN}/blocked-callers`, { number: '707-555-0144' })).status).toBe(201);
    // The list carries them as stored; the domain's view says how its country writes them.
    const listed = (await owner.get(`/domains/${DOMAIN}/blocked-callers`)).body.map((e: { number: string }) => e.number);
    const { phoneDisplay } = (await owner.get(`/domains/${DOMAIN}`)).body;
    expect(listed.map((n: string) => phoneDisplay[n]).sort()).toEqual(['(408) 555-0125', '(707) 555-0144']);
    expect((await owner.call('POST', `/domains/${DOMAIN}/pools/100/numbers`, { numbers: ['(415) 555-0107'] })).status).toBe(200);

    const page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US', timezoneId: 'America/New_York' })).newPage();
    await signIn(page, s.collector.baseUrl, OWNER);
    await page.goto(`${s.collector.baseUrl}/manage/#/${DOMAIN}/settings`);
    const blocked = page.getByTestId('blocked-callers');
    await blocked.getByText('(707) 555-0144').waitFor();
    expect(await blocked.textContent()).toContain('(408) 555-0125');
    expect(await blocked.textContent()).not.toMatch(/00 1|40 85/);

    const rules = page.getByTestId('rules-settings');
    await rules.getByTestId('rule').getByRole('button', { name: 'Preview' }).click();
    const preview = rules.getByTestId('rule-preview');
    await preview.waitFor();
    const previewText = (await preview.textContent())!;
    expect(previewText).toContain('(408) 555-0125');
    // The date as the domain's locale writes it (11/29/2026, 4:05 AM), not 2026-11-29 04:05:00.
    expect(previewText).toMatch(/\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d\d/);
    expect(previewText).not.toMatch(/\d{4}-\d\d-\d\d/);
    // The chat webhook in the list: its host and last four characters, wrapped within the screen.
    expect(await rules.getByTestId('rule').textContent()).toContain('…Qz7W');
    expect(await rules.getByTestId('rule').textContent()).not.toContain('x9SecretToken');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'settings');
    await rules.screenshot({ path: path.join(ARTIFACTS, 'us-agency-rules.png') });
    await blocked.screenshot({ path: path.join(ARTIFACTS, 'us-agency-blocked.png') });

    await page.goto(`${s.collector.baseUrl}/manage/#/${DOMAIN}/activity`);
    const activity = page.getByTestId('activity');
    await activity.getByText('added tracking numbers').waitFor();
    const log = (await activity.textContent())!;
    expect(log).toContain('(415) 555-0107');
    expect(log).toContain('blocked a caller');
    expect(log).not.toMatch(/00 14 15|\{"/);
    // Each action in words first, its code beside it, small.
    expect(await activity.locator('td[data-label="What"]').first().textContent()).toMatch(/^added tracking numbers numbers\.add$/);
    await shot(page, 'activity');

    // A person values the call: its history is dated as Americans write dates; the overview's
    // tables show every column (Leads, People, Value) within the phone's width.
    await page.goto(`${s.collector.baseUrl}/manage/#/${DOMAIN}/call?id=${callId}`);
    await page.getByTestId('call-marks').getByLabel(/^Value/).fill('250');
    await page.getByTestId('call-marks').getByRole('button', { name: 'Set the value' }).click();
    const history = page.getByTestId('call-history');
    await history.waitFor();
    expect(await history.textContent()).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d\d [AP]M/);
    expect(await page.locator('ol.pages-seen').textContent()).toMatch(/\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d\d [AP]M/);
    await shot(page, 'call');

    await page.goto(`${s.collector.baseUrl}/manage/#/${DOMAIN}/overview?from=${from}&to=${to}`);
    const bySource = page.locator('.card', { has: page.getByRole('heading', { name: 'By source' }) });
    await bySource.locator('td[data-label="Value"]').first().waitFor();
    for (const column of ['Leads', 'People', 'Value']) {
      const box = (await bySource.locator(`td[data-label="${column}"]`).first().boundingBox())!;
      expect(box.x + box.width, column).toBeLessThanOrEqual(390);
      expect(await bySource.locator(`td[data-label="${column}"]`).first().isVisible()).toBe(true);
    }
    expect(await bySource.locator('td[data-label="Value"]').first().textContent()).toBe('$250.00');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'overview');

    // The pools report names the pool as Settings does, and its dates and plurals as people write them.
    await page.goto(`${s.collector.baseUrl}/manage/#/${DOMAIN}/pools?from=${from}&to=${to}`);
    await page.getByRole('heading', { name: /^Local numbers/ }).waitFor();
    expect(await page.locator('section').textContent()).not.toMatch(/Pool of type|1 more numbers/);
    await shot(page, 'pools');
  });

  it('writes a caller hidden in part as (408) 555-XXXX in the calls log, the preview and the blocked callers', async () => {
    expect((await owner.call('PATCH', `/domains/${DOMAIN}`, { callerPrivacy: 'partial' })).status).toBe(200);
    const { from, to } = daysAroundNow();
    const log = (await owner.get(`/domains/${DOMAIN}/reports/calls?from=${from}&to=${to}`)).body;
    expect(log.calls[0].caller).toBe('408555XXXX');
    expect(log.phoneDisplay['408555XXXX']).toBe('(408) 555-XXXX');
    const rule = (await owner.get(`/domains/${DOMAIN}/rules`)).body.rules[0];
    expect((await owner.call('POST', `/domains/${DOMAIN}/rules/${rule.id}/preview`)).body.matches[0].phone).toBe('(408) 555-XXXX');
    const listed = (await owner.get(`/domains/${DOMAIN}/blocked-callers`)).body.map((e: { number: string }) => e.number);
    expect(listed.sort()).toEqual(['001408555XXXX', '001707555XXXX']);
    const { phoneDisplay } = (await owner.get(`/domains/${DOMAIN}`)).body;
    expect(listed.map((n: string) => phoneDisplay[n])).toEqual(['(408) 555-XXXX', '(707) 555-XXXX']);
  });
});
