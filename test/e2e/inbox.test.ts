// The texting inbox in Chromium (issue 68): texts come in through Twilio's signed webhook; the inbox
// lists the conversation unread; its thread opens (read), a reply typed shows its segments, is sent
// from the tracking number through the Twilio stand-in and shows `delivered` once its signed status
// callback came; "Call" rings the member (their phone asked once) then the person, and the calls log
// shows it outbound; a person who texted STOP shows why no reply can go; the inbox fits a 390-px phone.
// Screenshots in test-artifacts/.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { useDesktopPage } from '../helpers/chromium.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { twilioPost } from '../helpers/telephony.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { until } from '../helpers/until.ts';

const TWILIO = { sid: 'AC99999999999999999999999999999999', token: 'token-of-the-inbox-account' };
const OWNER = { username: 'owner@shop.test', password: 'inbox e2e owner password' };
const TRACKING = '+33800000001';
let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(TWILIO.sid, TWILIO.token, { numbers: [standInNumber(TRACKING)] })]);
});
afterAll(() => api.close());
const s = useSeededCollector('inbox_e2e', trackingFixture({ users: [OWNER] }), {
  secretsKey: randomBytes(32),
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
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/calls`);
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
});
