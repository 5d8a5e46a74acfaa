// Call flows in Chromium (issue 65): an owner makes a flow from a template, edits it (a step's
// seconds, a new option), assigns it to a pool, tests it in the simulator; an agent sets their
// phone on their profile; a call through the flow (signed Twilio webhooks) shows its path on its
// page; the screen fits a 390-px phone. Screenshots in test-artifacts/.
import path from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { TWILIO_TOKEN, twilioPost } from '../helpers/telephony.ts';
import { conversationWav } from '../helpers/speech.ts';

const OWNER = { username: 'owner@shop.test', password: 'call flows e2e password' };
const ADA = { username: 'ada@shop.test', password: 'call flows ada password', role: 'agent', domains: ['shop.test'] };
const BEN = { username: 'ben@shop.test', password: 'call flows ben password', role: 'agent', domains: ['shop.test'], phone: '0611000002' };
const s = useSeededCollector('call_flows_e2e', trackingFixture({ users: [OWNER, ADA, BEN] as never, settings: { whisper: true } }), { twilio: { authToken: TWILIO_TOKEN } });

let browser: Browser;
let page: Page;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
});
afterAll(() => browser?.close());

const shot = (name: string, target: Page = page) => target.screenshot({ path: path.join(ARTIFACTS, `call-flows-${name}.png`), fullPage: true });

describe('call flows in the back end', () => {
  it('an agent sets their phone on their profile', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const agent = await context.newPage();
    await agent.goto(`${s.collector.baseUrl}/manage/`);
    await agent.getByLabel('E-mail').fill(ADA.username);
    await agent.getByLabel('Password').fill(ADA.password);
    await agent.getByRole('button', { name: 'Sign in' }).click();
    await agent.locator('.top').getByRole('link', { name: ADA.username }).click();
    const card = agent.getByTestId('availability');
    await card.getByLabel('Your phone').fill('06 11 00 00 01');
    await card.getByRole('button', { name: 'Save my phone' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toContain('ring groups ring it');
    expect(await s.t.c.users.findOne({ _id: ADA.username })).toMatchObject({ phone: '0611000001' });
    await card.screenshot({ path: path.join(ARTIFACTS, 'call-flows-availability.png') });
    await context.close();
  });

  it('makes a flow from a template, edits it, assigns it to a pool, tests it, and shows a call’s path', async () => {
    await signIn(page, s.collector.baseUrl, OWNER);
    await page.locator('.top').getByRole('link', { name: 'Call flows' }).click();
    await page.getByRole('heading', { name: 'Call flows' }).waitFor();
    await page.getByRole('button', { name: 'Press 1 for sales, 2 for support' }).click();
    const editor = page.getByTestId('flow-editor');
    // The template's cards in the order a caller meets them; the sales group rings both members.
    expect(await editor.getByTestId('flow-step').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-step')))).toEqual(['menu', 'sales', 'voicemail', 'support']);
    const sales = editor.locator('[data-step="sales"]');
    // Drawn as the editor's cards settle (seen once under the whole suite's load with one drawn yet).
    await expect.poll(() => sales.getByTestId('ring-target').count()).toBe(2);
    await sales.getByLabel('Seconds each').fill('15');
    // Named as a person names it (issue 80): the path, the calls log and the overview say it.
    await sales.getByLabel(/^Name/).fill('Sales team');
    await editor.locator('[data-step="support"]').getByLabel(/^Name/).fill('Support desk');
    // A third option: 0 for the front desk's voicemail.
    const menu = editor.locator('[data-step="menu"]');
    await menu.getByRole('button', { name: 'Add an option' }).click();
    const third = menu.getByTestId('menu-option').nth(2);
    await third.getByLabel('Label').fill('Opening hours');
    // The menu's wait and repeats, on screen (issue 80).
    await menu.getByLabel('Seconds to press a key').fill('8');
    await menu.getByLabel('Times played again after no key or a wrong one').fill('1');
    // The voicemail's greeting recorded: a real spoken file uploaded from the card.
    const greeting = path.join(ARTIFACTS, 'call-flows-greeting.wav');
    writeFileSync(greeting, conversationWav([{ speaker: 'agent', text: 'You reached the shop. Please leave a message.' }], { channels: 1 }));
    const voicemail = editor.locator('[data-step="voicemail"]');
    await voicemail.getByLabel('Or a recording (WAV, MP3)').setInputFiles(greeting);
    await voicemail.locator('audio').waitFor();
    await editor.getByTestId('assign-pool-1').check();
    await editor.getByRole('button', { name: 'Save the flow' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Flow Press 1 for sales, 2 for support saved.');
    const stored = (await s.t.c.callFlows.findOne({}))!;
    expect(stored).toMatchObject({ assignedTo: { pools: [1] }, steps: { sales: { ringSeconds: 15, name: 'Sales team' }, menu: { timeoutSeconds: 8, repeats: 1 } } });
    expect((stored.steps.menu as { options: { label: string }[] }).options.map((o) => o.label)).toEqual(['Sales', 'Support', 'Opening hours']);
    expect(stored.steps.voicemail).toMatchObject({ greeting: { audio: expect.stringMatching(/^[a-f0-9]{24}$/) } });
    await shot('editor');

    // The simulator: key 1, Ben picks up; Ada and Ben ring, each hearing the whisper.
    const simulator = page.getByTestId('simulator');
    await simulator.getByLabel('Caller').fill('06 22 00 00 01');
    await simulator.getByLabel('Keys pressed, in order').fill('1');
    await simulator.getByLabel('Who picks up').selectOption(BEN.username);
    await simulator.getByLabel('Came from').selectOption('paid:google');
    await simulator.getByRole('button', { name: 'Test this flow' }).click();
    const simulation = simulator.getByTestId('simulation');
    await simulation.waitFor();
    const said = await simulation.textContent();
    expect(said).toContain('menu pressed 1 (Sales)');
    expect(said).toContain(`${ADA.username} at 0611000001, who hears “Call from Google Ads”`);
    expect(said).toContain(`Ends: answered by ${BEN.username}`);
    expect(await s.t.c.calls.countDocuments()).toBe(0);
    await simulator.screenshot({ path: path.join(ARTIFACTS, 'call-flows-simulator.png') });

    // A call to a number of the pool, through Twilio: key 2, support rung in turn, Ada answers.
    const base = { AccountSid: 'AC00000000000000000000000000000065', CallSid: 'CA-e2e-flow', From: '+33622000009', To: '+33800000001', Direction: 'inbound', ApiVersion: '2010-04-01' };
    const action = (xml: string, pattern: RegExp) => `/${pattern.exec(xml)![1]!.replaceAll('&amp;', '&')}`;
    const voice = await twilioPost(s.collector.baseUrl, '/voice', { ...base, CallStatus: 'ringing' });
    const support = await twilioPost(s.collector.baseUrl, action(voice.text, /<Gather[^>]* action="([^"]+)"/), { ...base, CallStatus: 'in-progress', Digits: '2' });
    await twilioPost(s.collector.baseUrl, action(support.text, /<Number url="([^"]+)"/), { ...base, CallSid: 'CA-e2e-flow-leg', ParentCallSid: base.CallSid, Direction: 'outbound-dial', CallStatus: 'in-progress' });
    await twilioPost(s.collector.baseUrl, action(support.text, /<Dial[^>]* action="([^"]+)"/), { ...base, CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: '31' });
    const callId = (await s.t.c.calls.findOne({ callRef: 'CA-e2e-flow' }))!._id;
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/call?id=${callId}`);
    const card = page.getByTestId('flow-path');
    await card.getByRole('heading', { name: `Call flow: answered by ${ADA.username}` }).waitFor();
    const lines = await card.locator('li').allInnerTexts();
    expect(lines.map((l) => l.replace(/^\d\d:\d\d:\d\d /, ''))).toEqual(['menu prompt played', 'menu pressed 2 (Support)', 'Support desk ring sequential', expect.stringMatching(new RegExp(`^Support desk ${ADA.username} answered after \\d+ s$`))]);
    await shot('call-path');
    // The calls log says who answered, and filters by it.
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/calls?answeredBy=${encodeURIComponent(ADA.username)}`);
    await page.locator(`tr[data-call="${callId}"]`).getByText(`answered by ${ADA.username}`).waitFor();
  }, 120_000);

  it("changes a step's kind in its place, and tests the flow on the domain's clock (issue 80)", async () => {
    // The browser's clock is New York's; the domain's is Paris's.
    const settings = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await settings.call('PATCH', '/domains/shop.test', { timeZone: 'Europe/Paris' })).status).toBe(200);
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, timezoneId: 'America/New_York' });
    const owner = await context.newPage();
    await signIn(owner, s.collector.baseUrl, OWNER);
    await owner.goto(`${s.collector.baseUrl}/manage/#/shop.test/flows`);
    await owner.getByRole('button', { name: 'Edit' }).click();
    const editor = owner.getByTestId('flow-editor');
    // The sales group becomes a menu: its options lead where the group's no-answer led, its name stays.
    await editor.getByLabel('Kind of sales').selectOption('menu');
    // The voicemail, which led nowhere, becomes opening hours: they lead to a new step of their own.
    await editor.getByLabel('Kind of voicemail').selectOption('schedule');
    await editor.getByRole('button', { name: 'Save the flow' }).click();
    await expect.poll(() => owner.getByRole('status').textContent()).toContain('saved.');
    const stored = (await s.t.c.callFlows.findOne({}))!;
    const steps = stored.steps as Record<string, { kind: string; name?: string; default?: string; open?: string; closed?: string; options?: { next: string }[] }>;
    expect(steps.sales).toMatchObject({ kind: 'menu', name: 'Sales team', default: 'voicemail' });
    expect(steps.sales!.options!.map((o) => o.next)).toEqual(['voicemail']);
    expect(steps.voicemail).toMatchObject({ kind: 'schedule' });
    expect(steps.voicemail!.open).not.toBe('menu');
    expect(steps[steps.voicemail!.open!]).toMatchObject({ kind: 'voicemail' });
    await shot('kind-changed', owner);

    // Monday 08:30 in Paris is before the template's 09:00 opening (14:30 in Paris on New York's clock).
    const simulator = owner.getByTestId('simulator');
    expect(await simulator.locator('label').first().textContent()).toBe("When, on the domain's clock (Europe/Paris)");
    await simulator.getByLabel(/^When, on the domain's clock/).fill('2026-12-21T08:30');
    await simulator.getByLabel('Keys pressed, in order').fill('3');
    await simulator.getByRole('button', { name: 'Test this flow' }).click();
    const simulation = simulator.getByTestId('simulation');
    await simulation.waitFor();
    expect(await simulation.getByTestId('simulated-at').textContent()).toBe('A call at 2026-12-21 08:30, Europe/Paris time');
    expect(await simulation.textContent()).toContain('voicemail closed (Monday 08:30)');
    // The path names the steps as a person named them.
    expect(await simulation.locator('li').allInnerTexts()).toContain('Sales team prompt played');
    await simulator.screenshot({ path: path.join(ARTIFACTS, 'call-flows-simulator-clock.png') });
    await context.close();
  }, 60_000);

  it('fits a 390-px phone', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const phone = await context.newPage();
    await signIn(phone, s.collector.baseUrl, OWNER);
    await phone.goto(`${s.collector.baseUrl}/manage/#/shop.test/flows`);
    await phone.getByRole('button', { name: 'Edit' }).click();
    await phone.getByTestId('flow-editor').waitFor();
    const wider = await phone.evaluate(() => Math.max(0, document.documentElement.scrollWidth - 390));
    const sticksOut = await phone.evaluate(() => [...document.querySelectorAll('.content *')].filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > 390.5).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`));
    await shot('phone', phone);
    expect(wider).toBe(0);
    expect(sticksOut).toEqual([]);
    // The overview's Call flows card fits too (issue 80).
    await phone.goto(`${s.collector.baseUrl}/manage/#/shop.test/overview`);
    const card = phone.getByTestId('flow-report');
    await card.waitFor();
    expect(await card.textContent()).toContain('Support desk');
    const overflow = await phone.evaluate(() => [...document.querySelectorAll('[data-testid="flow-report"] *')].filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > 390.5).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`));
    await card.screenshot({ path: path.join(ARTIFACTS, 'call-flows-overview-phone.png') });
    expect(overflow).toEqual([]);
    expect(await phone.evaluate(() => Math.max(0, document.documentElement.scrollWidth - 390))).toBe(0);
    await context.close();
  }, 60_000);
});
