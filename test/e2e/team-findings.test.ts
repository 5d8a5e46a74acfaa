// What a team tripped over (issue 52), in Chromium, each screen looked at: "Forgot your password?"
// with an empty field; a form that named two people, kept apart and merged by hand on the person's
// page; a mail server that stopped answering, said on the Settings screen; a call to a number
// nobody held, with its true outcome in the calls log. Screenshots test-artifacts/team-findings-*.png.
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { browserPost } from '../helpers/site-page.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'team findings password' };

// A mail server that takes the connection and never says a word.
const silent = net.createServer(() => undefined);
await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => silent.close(() => resolve())));

describe('what a team tripped over', () => {
  const b = useBrowserSite('e2e_team_findings', (origin) => trackingFixture({ users: [OWNER], allowedOrigins: [origin, 'https://shop.test'], settings: { formTracking: { enabled: true, fields: [] } } }), {
    telephonyApiKey: TELEPHONY_KEY,
    delivery: { pollMs: 50, firstRetryMs: 200, maxRetryMs: 400, publicOnly: false },
    mail: { smtpUrl: `smtp://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, from: 'RingTrail <calls@shop.test>', timeoutMs: 300 },
  });
  const shot = (name: string) => path.join(ARTIFACTS, `team-findings-${name}.png`);

  it('says the e-mail is required when "Forgot your password?" is clicked with an empty field', async () => {
    const page = await (await b.browser.newContext({ viewport: { width: 1100, height: 700 } })).newPage();
    await page.goto(`${b.collector.baseUrl}/manage/`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('alert').filter({ hasText: 'E-mail is required' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('username');
    await page.screenshot({ path: shot('forgot-empty') });
  });

  it('keeps a form that named two people apart, and merges them when a person says they are one', async () => {
    await reportCall(b.collector.baseUrl, { callRef: 'team-1', trackingNumber: '0100000001', startDate: new Date(), callerPhone: '0622222222', duration: 30 });
    const form = async (fields: Record<string, string>) => (await (await browserPost(b.collector.baseUrl, '/t/form', { key: 'pk-test-key', visit_id: 0, url: 'https://shop.test/contact', fields: JSON.stringify(fields), elapsed_ms: 8000 })).json()).formId as number;
    await form({ email: 'bob@example.com', name: 'Bob' });
    await form({ email: 'bob@example.com', phone: '06 22 22 22 22', message: 'It is me again' });
    const caller = (await b.t.c.calls.findOne({ callRef: 'team-1' }))!.personId!;

    const page = await (await b.browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await signIn(page, b.collector.baseUrl, OWNER);
    await page.goto(`${b.collector.baseUrl}/manage/#/shop.test/person?id=${caller}`);
    const note = page.getByTestId('possible-matches');
    await note.waitFor();
    expect(await note.innerText()).toContain('A form named this person and another at once');
    await page.getByRole('heading', { name: /Person 06 22 22 22 22/ }).waitFor();
    await page.screenshot({ path: shot('possible-match'), fullPage: true });
    const byEmail = (await b.t.c.forms.findOne({ 'fields.name': 'Bob' }))!.personId!;
    await page.getByRole('button', { name: `Merge with #${byEmail}` }).click();
    // One person now: the older, with the number and the address.
    await page.getByRole('heading', { name: /Person 06 22 22 22 22, bob@example\.com/ }).waitFor();
    expect((await b.t.c.forms.findOne({ 'fields.name': 'Bob' }))!.personId).toBe(Math.min(caller, byEmail));
    await page.screenshot({ path: shot('merged'), fullPage: true });
  });

  it('says on the Settings screen that the mail server stopped answering, since when, with its last error', async () => {
    const page = await (await b.browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    await signIn(page, b.collector.baseUrl, OWNER);
    await page.goto(`${b.collector.baseUrl}/manage/#/shop.test/settings`);
    await page.getByRole('button', { name: 'Send me a test e-mail' }).click();
    await expect.poll(() => b.t.c.deliveryLog.countDocuments({ kind: 'mail', outcome: 'retrying' }), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.reload();
    const said = page.getByTestId('mail-retrying');
    await said.waitFor();
    expect(await said.innerText()).toMatch(/^The mail server is not taking mail: retrying since .+, \d+ mails? waiting\. Last error: .*(timeout|greeting)/i);
    await page.getByTestId('mail').screenshot({ path: shot('mail-retrying') });
  });

  it('shows a call to a number nobody held with its true outcome in the calls log', async () => {
    await reportCall(b.collector.baseUrl, { callRef: 'team-unheld', trackingNumber: '0800000003', startDate: new Date(), callerPhone: '0633333333', status: 'NORESPONSE', duration: 0 });
    const page = await (await b.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await signIn(page, b.collector.baseUrl, OWNER);
    await page.goto(`${b.collector.baseUrl}/manage/#/shop.test/calls`);
    const row = page.locator('table.calls tbody tr', { hasText: '06 33 33 33 33' });
    await row.waitFor();
    expect(await row.locator('td[data-label="Status, match"]').innerText()).toMatch(/^No answer\s+not attributed/);
    await page.screenshot({ path: shot('calls-log') });
  });
});
