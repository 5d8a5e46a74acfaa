// The texting inbox in Chromium (issue 68): texts come in through Twilio's signed webhook; the inbox
// lists the conversation unread; its thread opens (read), a reply typed shows its segments, is sent
// from the tracking number through the Twilio stand-in and shows `delivered` once its signed status
// callback came; "Call" rings the member (their phone asked once) then the person, and the calls log
// shows it outbound; a person who texted STOP shows why no reply can go; the inbox fits a 390-px phone;
// a rule on texts made on the settings page tells the chat of a matching text and previews the texts.
// Screenshots in test-artifacts/.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { useDesktopPage } from '../helpers/chromium.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { twilioPost } from '../helpers/telephony.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { until } from '../helpers/until.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

const TWILIO = { sid: 'AC99999999999999999999999999999999', token: 'token-of-the-inbox-account' };
const OWNER = { username: 'owner@shop.test', password: 'inbox e2e owner password' };
const TRACKING = '+33800000001';
let api: TwilioApiStandIn;
let chat: Receiver;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(TWILIO.sid, TWILIO.token, { numbers: [standInNumber(TRACKING)] })]);
  chat = await startReceiver();
});
afterAll(async () => {
  await api.close();
  await chat.close();
});
const s = useSeededCollector('inbox_e2e', trackingFixture({ users: [OWNER] }), {
  secretsKey: randomBytes(32),
  // The rule's chat webhook is on loopback.
  delivery: { publicOnly: false },
  get twilioApiBase() {
    return api.base;
  },
});
const chrome = useDesktopPage();

let texts = 0;
const textIn = (from: string, body: string) => twilioPost(s.collector.baseUrl, '/sms', { AccountSid: TWILIO.sid, MessageSid: `SM-e2e-${++texts}`, From: from, To: TRACKING, Body: body, NumSegments: '1' }, TWILIO.token);

describe('the inbox in the back end', () => {
  it('lists a text unread, opens its thread, sends a reply that is delivered, and says why an opted-out person cannot be texted', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: TWILIO.sid, authToken: TWILIO.token })).status).toBe(200);
    await textIn('+33612345678', 'Hello! Is the boiler still on sale?');
    await textIn('+33698765432', 'What are your opening hours?');
    await textIn('+33698765432', 'STOP');

    const page = chrome.page;
    await signIn(page, s.collector.baseUrl, OWNER);
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/inbox`);
    const list = page.getByTestId('conversations');
    await list.getByText('Hello! Is the boiler still on sale?').waitFor();
    expect(await page.getByRole('status').first().textContent()).toContain('2 unread');
    await page.screenshot({ path: path.join(ARTIFACTS, 'inbox-list.png') });

    await list.getByText('Hello! Is the boiler still on sale?').click();
    const thread = page.getByTestId('thread');
    await thread.getByText('Hello! Is the boiler still on sale?').waitFor();
    await until(async () => (await s.t.c.conversations.findOne({ phone: '0612345678' }))?.unread === 0, 'the thread read');
    await thread.getByLabel('Reply from the tracking number').fill('Yes, it is! When may we call you? 😀');
    expect(await thread.getByTestId('segments').textContent()).toContain('1 segment (unicode: 70 characters each)');
    await thread.getByRole('button', { name: 'Send text' }).click();
    await thread.getByText('Yes, it is! When may we call you? 😀').waitFor();
    const sent = api.messages.at(-1)!;
    expect(sent).toMatchObject({ from: TRACKING, to: '+33612345678', body: 'Yes, it is! When may we call you? 😀' });
    const callback = new URL(sent.statusCallback!);
    expect((await twilioPost(s.collector.baseUrl, `${callback.pathname.replace('/telephony/twilio', '')}${callback.search}`, { AccountSid: TWILIO.sid, MessageSid: sent.sid, MessageStatus: 'delivered', From: sent.from, To: sent.to }, TWILIO.token)).status).toBe(200);
    await page.reload();
    await thread.getByTestId('text-status').filter({ hasText: 'delivered' }).waitFor();
    await thread.screenshot({ path: path.join(ARTIFACTS, 'inbox-thread.png') });

    // Call them back: the member's phone is asked once, rung first, from the tracking number.
    await thread.getByRole('button', { name: 'Call', exact: true }).click();
    await thread.getByLabel('Your phone, rung first').fill('06 99 88 77 66');
    await thread.getByRole('button', { name: 'Ring me' }).click();
    await thread.getByText('Your phone rings').waitFor();
    expect(api.calls.at(-1)).toMatchObject({ from: TRACKING, to: '+33699887766' });
    await thread.screenshot({ path: path.join(ARTIFACTS, 'inbox-call-back.png') });
    // Calls placed are listed apart from the calls received (issue 80).
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/calls?direction=outbound`);
    await page.getByTestId('outbound').first().waitFor();
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/inbox`);

    await list.getByText('STOP').click();
    await thread.getByTestId('opted-out').waitFor();
    expect(await thread.getByTestId('opted-out').textContent()).toContain('This number opted out: they texted STOP');
    expect(await thread.getByRole('button', { name: 'Send text' }).count()).toBe(0);
    await thread.screenshot({ path: path.join(ARTIFACTS, 'inbox-opted-out.png') });
  }, 90_000);

  it('fits a 390-px phone: the list, then the thread alone', async () => {
    const context = await chrome.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const phone = await context.newPage();
    await signIn(phone, s.collector.baseUrl, OWNER);
    await phone.goto(`${s.collector.baseUrl}/manage/#/shop.test/inbox`);
    await phone.getByTestId('conversations').getByText('Yes, it is!').waitFor();
    await phone.getByTestId('conversations').getByText('Yes, it is!').click();
    await phone.getByTestId('thread').getByText('Hello! Is the boiler still on sale?').waitFor();
    expect(await phone.getByTestId('conversations').isVisible()).toBe(false);
    const wider = await phone.evaluate(() => Math.max(0, document.documentElement.scrollWidth - 390));
    const sticksOut = await phone.evaluate(() => [...document.querySelectorAll('.content *')].filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > 390.5).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`));
    await phone.screenshot({ path: path.join(ARTIFACTS, 'inbox-phone.png') });
    expect(wider).toBe(0);
    expect(sticksOut).toEqual([]);
    await context.close();
  }, 60_000);

  it('makes a rule on texts on the settings page, which tells the chat of a matching text and previews the texts', async () => {
    const page = chrome.page;
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/settings`);
    const card = page.getByTestId('rules-settings');
    const form = card.getByTestId('rule-form');
    await form.getByLabel('Name').fill('Price texts');
    await form.locator('select[name="moment"]').selectOption('text-received');
    await form.locator('textarea[name="conditions"]').fill('words contains price');
    await form.locator('textarea[name="actions"]').fill('tag Booked');
    await form.getByRole('button', { name: 'Make the rule' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toContain('actions.0.type: a text keeps no tags, value or verdict: a text-received rule may chat, push or mail');
    // A refused rule keeps what was typed, to be mended.
    expect(await form.getByLabel('Name').inputValue()).toBe('Price texts');
    expect(await form.locator('select[name="moment"]').inputValue()).toBe('text-received');
    await form.locator('textarea[name="actions"]').fill(`chat ${chat.url('/chat')}`);
    await form.getByRole('button', { name: 'Make the rule' }).click();
    const rule = card.getByTestId('rule').filter({ hasText: 'Price texts' });
    await rule.waitFor();
    expect(await rule.textContent()).toContain('when a text was received, if all of:');
    // Nothing on a past text to change: no "Apply to past calls".
    expect(await rule.getByTestId('past-calls').count()).toBe(0);

    // The texter saw the tracking number on a page their ad led to: the text is that visit's, as a call would be.
    for (let visitor = 1; (await s.t.c.leases.countDocuments({ number: '0800000001' })) === 0; visitor++) {
      expect(visitor, 'a visit shown the number texted').toBeLessThanOrEqual(3);
      await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_campaign=spring', ip: `198.51.100.${visitor}` }));
    }
    await textIn('+33611112222', 'What is the price of delivery to Lyon?');
    const [message] = await chat.waitFor(1, (r) => r.path === '/chat');
    expect((JSON.parse(message!.body) as { text: string }).text).toContain('rule *Price texts* matched a text from 0611112222, "What is the price of delivery to Lyon?", source paid:google.');
    await rule.getByRole('button', { name: 'Preview' }).click();
    await card.getByTestId('rule-preview').waitFor();
    expect(await card.getByTestId('rule-preview').textContent()).toMatch(/1 of 4 matched\.\s*text \d+, .*06 11 11 22 22, paid:google: chat/);
    await card.screenshot({ path: path.join(ARTIFACTS, 'inbox-text-rule.png') });
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/inbox`);
    await page.getByTestId('conversations').getByText('What is the price of delivery to Lyon?').click();
    await page.getByTestId('thread').getByText('from paid:google').waitFor();
    await page.getByTestId('thread').screenshot({ path: path.join(ARTIFACTS, 'inbox-thread-source.png') });
  }, 60_000);
});
