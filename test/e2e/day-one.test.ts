// Day one of a US agency in Chromium (issue 81), against the loopback Twilio stand-in: buying numbers
// shows Twilio's monthly price and the total and buys only once confirmed; the texting settings are
// edited on a screen; the US texting registration card says the local numbers are not registered and
// registers the campaign; the inbox shows the texter's name, a note and an MMS picture; the Agents
// screen counts who answered through a call flow. Each fits a 390-px phone. Screenshots in
// test-artifacts/day-one-*.png.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { useDesktopPage } from '../helpers/chromium.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { twilioPost } from '../helpers/telephony.ts';
import { standInAccount, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const TWILIO = { sid: 'AC81000000000000000000000000000081', token: 'token-of-the-day-one-agency' };
const OWNER = { username: 'owner@bayplumbing.test', password: 'day one owner password' };
const BRAND = 'BN81818181818181818181818181818181';
const PICTURE = readFileSync(new URL('../../docs/back-end-overview.png', import.meta.url));
let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(TWILIO.sid, TWILIO.token, { friendlyName: 'Bay Plumbing', available: { US: { Local: ['+14155550161', '+14155550162', '+14155550163'] } } })]);
});
afterAll(() => api.close());
const s = useSeededCollector('day_one_e2e', trackingFixture({ users: [OWNER], settings: { country: 'US', currency: 'USD', timeZone: 'America/Los_Angeles', sitePhones: ['4155550100'] } }), {
  secretsKey: randomBytes(32),
  get twilioApiBase() {
    return api.base;
  },
});
const chrome = useDesktopPage();
const account = () => api.accounts.get(TWILIO.sid)!;

/** The page at a 390-px phone's width: nothing wider than the screen. */
async function fitsAPhone(name: string) {
  const page = chrome.page;
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(ARTIFACTS, `day-one-${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe("a US agency's day one", () => {
  it("buys numbers only once the monthly price and the total were shown and confirmed", async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: TWILIO.sid, authToken: TWILIO.token })).status).toBe(200);
    expect((await owner.call('POST', '/domains/shop.test/pools', { type: 100, usage: 'online', codeDigits: 0 })).status).toBe(201);
    const page = chrome.page;
    await signIn(page, s.collector.baseUrl, OWNER);
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/settings`);
    const buy = page.locator('form.buy', { has: page.getByLabel('How many numbers to buy for type 100') });
    await buy.getByLabel('How many numbers to buy for type 100').fill('2');
    await buy.getByRole('button', { name: 'Buy numbers…' }).click();
    const confirm = buy.getByTestId('confirm-buy');
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('Buy 2 numbers at $1.15 a month each: $2.30 a month in all, billed by Twilio');
    expect(account().numbers).toEqual([]);
    await confirm.screenshot({ path: path.join(ARTIFACTS, 'day-one-buy-confirm.png') });
    await confirm.getByRole('button', { name: 'Confirm: buy 2 for $2.30 a month' }).click();
    await expect.poll(() => account().numbers.length).toBe(2);
  });

  it('edits the texting settings on a screen and registers the US campaign from its card', async () => {
    const page = chrome.page;
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/settings`);
    await page.reload(); // the same screen as before the purchase: loaded again
    const texting = page.getByTestId('texting-settings');
    await texting.getByLabel("The business's name, as texts give it").fill('Bay Plumbing');
    await texting.getByRole('button', { name: 'Add a reply' }).click();
    await texting.getByLabel('Name', { exact: true }).fill('Quote');
    await texting.getByLabel('Text', { exact: true }).fill('Hi {firstName}, we can send a quote today. When suits you?');
    await texting.getByLabel('Text a caller nobody answered').check();
    await texting.getByRole('button', { name: 'Update texting' }).click();
    await expect.poll(() => texting.getByRole('status').textContent()).toBe('Saved.');
    expect((await s.t.c.domains.findOne({ _id: 'shop.test' }))!.texting).toMatchObject({ businessName: 'Bay Plumbing', savedReplies: [{ name: 'Quote' }], textBack: { enabled: true } });
    await expect.poll(() => page.getByTestId('help-text-sent').textContent()).toContain('Bay Plumbing: you are texting the team of Bay Plumbing');

    const us = page.getByTestId('us-texting');
    await us.waitFor();
    expect(await us.innerText()).toContain('not registered: texts fail');
    expect(await us.innerText()).toContain('Twilio Console, A2P brands');
    account().brands.push({ sid: BRAND, status: 'APPROVED', failureReason: null });
    await page.reload();
    const form = page.getByTestId('campaign-form');
    await form.getByLabel('What the texts are for').fill('Answers to customers who text our numbers about plumbing quotes and appointments.');
    await form.getByLabel('How people agree to be texted').fill('Customers text our number first, from our website or ads; we only reply and they may text STOP.');
    await form.getByLabel('A text as the team sends it').fill('Hi Jane, yes we can come on Saturday at 10 am. Does that suit you?');
    await form.getByLabel('Another').fill('Sorry we missed your call! How can we help? Reply to this text.');
    await form.getByRole('button', { name: 'Register the campaign with Twilio' }).click();
    await expect.poll(() => page.getByTestId('us-texting').innerText()).toContain('in review: texts wait for approval');
    expect(account().services[0]!.campaign).toMatchObject({ status: 'PENDING', useCase: 'CUSTOMER_CARE' });
    await page.getByTestId('us-texting').screenshot({ path: path.join(ARTIFACTS, 'day-one-us-texting.png') });
    await texting.screenshot({ path: path.join(ARTIFACTS, 'day-one-texting-settings.png') });
    await fitsAPhone('settings');
  });

  it("shows a texter's name, a note and a picture in the inbox", async () => {
    const [tracking] = account().numbers;
    const text = (body: string, extra: Record<string, string> = {}) => twilioPost(s.collector.baseUrl, '/sms', { AccountSid: TWILIO.sid, MessageSid: `SM-day-one-${body.length}-${Object.keys(extra).length}`, From: '+14155550177', To: tracking!.phone_number, Body: body, NumSegments: '1', ...extra }, TWILIO.token);
    await text('Hi, can you look at a leaking water heater?');
    await text('', { NumMedia: '1', MediaUrl0: api.addMedia(TWILIO.sid, 'image/png', PICTURE), MediaContentType0: 'image/png' });
    const page = chrome.page;
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/inbox`);
    await page.getByTestId('conversations').getByText('(picture)').click();
    const thread = page.getByTestId('thread');
    await thread.getByRole('button', { name: 'Add their name' }).click();
    await thread.getByLabel('Their name').fill('Jane Carter');
    await thread.getByRole('button', { name: 'Save name' }).click();
    await thread.getByRole('heading', { name: 'Jane Carter' }).waitFor();
    await thread.getByLabel('Note for the team (never texted)').fill('Water heater in the garage; prefers texts after 5 pm.');
    await thread.getByRole('button', { name: 'Add note' }).click();
    await thread.getByTestId('note').waitFor();
    const picture = thread.locator('img.mms');
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);
    expect(await page.getByTestId('conversations').innerText()).toContain('Jane Carter');
    await page.screenshot({ path: path.join(ARTIFACTS, 'day-one-inbox.png'), fullPage: true });
    await fitsAPhone('inbox');
  });

  it('says where to connect a carrier while the inbox is empty, and counts who answered through a flow on the Agents screen', async () => {
    const page = chrome.page;
    await s.t.c.conversations.deleteMany({});
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/inbox`);
    await page.reload();
    expect(await page.getByTestId('empty-inbox').innerText()).toContain('connect Twilio on Account');
    await s.t.c.calls.insertOne({ _id: 990001, domainId: 'shop.test', trackingNumber: '0014155550161', startedAt: new Date(), status: 'SUCCESS', duration: 125, flowId: 'f1', answeredBy: { member: OWNER.username, number: '0014155550111', name: OWNER.username, afterSeconds: 6 } } as never);
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/agents`);
    const table = page.getByTestId('flow-answerers');
    await table.waitFor();
    expect(await table.innerText()).toMatch(new RegExp(`${OWNER.username.replace('.', '\\.')}\\s+1\\s+2 min 5 s\\s+6 s`));
    await page.screenshot({ path: path.join(ARTIFACTS, 'day-one-agents.png') });
    await fitsAPhone('agents');
  });
});
