// Form tracking in Chromium (issue 43): on a page with a contact form and the tag, a submission is
// captured without the site changing its form, attributed to the visit's source; a password field
// and a card field in the form are never sent; under pending consent nothing is sent; a form posted
// by script (requestSubmit) is captured; a robot's instant submission is marked spam. A person who
// sent the form with their phone and then calls from it has one timeline with both, and the
// overview counts them once among the people who became leads; their data is downloaded, then erased.
// Screenshots test-artifacts/forms-*.png.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signIn } from '../helpers/manage-ui.ts';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { visitorContext } from '../helpers/chromium.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { sitePage } from '../helpers/test-site.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'forms e2e password' };

const FORM = `<h1>Acme plumbing</h1><p>Call us: <span id="phone">01 23 45 67 89</span></p>
<form id="contact" name="contact" action="/thanks" method="post">
  <label>Name <input name="name" autocomplete="name"></label>
  <label>E-mail <input name="email" type="email"></label>
  <label>Phone <input name="phone" type="tel"></label>
  <label>Budget <input name="budget"></label>
  <label>Account password <input name="password" type="password"></label>
  <label>Card <input name="card" autocomplete="cc-number"></label>
  <input type="hidden" name="csrf" value="secret-token">
  <label>Message <textarea name="message"></textarea></label>
  <button id="send">Send</button>
</form>
<button id="yes" onclick="RingTrail.consent(true)">Accept cookies</button>`;

describe('form tracking in a browser', () => {
  const b = useBrowserSite('e2e_forms', (origin) => trackingFixture({ allowedOrigins: [origin], settings: { formTracking: { enabled: true, fields: ['budget'] } }, users: [OWNER] }), { telephonyApiKey: TELEPHONY_KEY });

  /** The page, once the form capture has added its hidden field to the form. */
  async function open(attributes = '', query = ''): Promise<Page> {
    b.site.pages['/contact'] = sitePage(FORM, attributes);
    b.site.pages['/thanks'] = '<!doctype html><title>Thanks</title><p>Thanks</p>';
    const page = await (await visitorContext(b.browser)).newPage();
    await page.goto(`${b.site.origin}/contact${query}`, { referer: 'https://www.google.com/' });
    await page.locator('#contact [name=rt_hp]').waitFor({ state: 'attached' });
    return page;
  }

  async function fill(page: Page): Promise<void> {
    await page.fill('[name=name]', 'Ada Lovelace');
    await page.fill('[name=email]', 'ada@example.com');
    await page.fill('[name=phone]', '06 12 34 56 78');
    await page.fill('[name=budget]', '2000 EUR');
    await page.fill('[name=password]', 'hunter2-password');
    await page.fill('[name=card]', '4111 1111 1111 1111');
    await page.fill('[name=message]', 'My boiler leaks <b>badly</b>');
  }

  it('captures a submission attributed to the visit, never the password, card or hidden fields', async () => {
    const page = await open('', '?utm_source=google&utm_medium=cpc&utm_term=boiler+leak&gclid=E2E-FORM');
    await fill(page);
    await page.screenshot({ path: path.join(ARTIFACTS, 'forms-contact-page.png'), fullPage: true });
    // A person takes more than 2 seconds to fill a form.
    await page.waitForFunction(() => performance.now() > 2100);
    await page.click('#send');
    await page.waitForURL(/\/thanks$/);
    await expect.poll(() => b.t.c.forms.countDocuments({ gclid: 'E2E-FORM' }), { timeout: 10_000 }).toBe(1);
    const form = (await b.t.c.forms.findOne({ gclid: 'E2E-FORM' }))!;
    expect(form.fields).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', phone: '06 12 34 56 78', budget: '2000 EUR', message: 'My boiler leaks <b>badly</b>' });
    expect(form).toMatchObject({ source: 'paid:google', keyword: 'boiler leak', formName: 'contact', phone: '0612345678', email: 'ada@example.com', spam: null, lead: true });
    // The card's digits as typed or run together: a random visitor id may hold `4111` by chance.
    expect(JSON.stringify(form)).not.toMatch(/hunter2|4111 1111|4111111111111111|secret-token/);
  });

  it('sends nothing under pending consent, and captures once the visitor accepts; a form posted by script too', async () => {
    const page = await open(' data-consent="pending"', '?utm_source=newsletter&utm_medium=email&utm_campaign=consent-check');
    await page.fill('[name=email]', 'pending@example.com');
    await page.waitForFunction(() => performance.now() > 2100);
    // Submitted by script while consent is pending: the site stops the navigation, the tag sends nothing.
    await page.evaluate(() => {
      const form = document.getElementById('contact') as HTMLFormElement;
      form.addEventListener('submit', (e) => e.preventDefault());
      form.requestSubmit();
    });
    await page.click('#yes');
    await page.fill('[name=email]', 'accepted@example.com');
    await page.evaluate(() => (document.getElementById('contact') as HTMLFormElement).requestSubmit());
    await expect.poll(() => b.t.c.forms.countDocuments({ email: 'accepted@example.com' }), { timeout: 10_000 }).toBe(1);
    expect(await b.t.c.forms.countDocuments({ email: 'pending@example.com' })).toBe(0);
    expect((await b.t.c.forms.findOne({ email: 'accepted@example.com' }))!.source).toMatch(/:newsletter$/); // the visit's source, as a call's
  });

  it('is set in the back end: on or off, and the fields to capture beside the contact fields', async () => {
    const page = await (await b.browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    await signIn(page, b.collector.baseUrl, OWNER);
    await page.goto(`${b.collector.baseUrl}/manage/#/shop.test/settings`);
    const card = page.getByTestId('form-tracking');
    expect(await card.getByLabel(/Capture the site's form submissions/).isChecked()).toBe(true);
    await card.getByLabel(/Also capture these fields/).fill('budget, postcode');
    await card.getByRole('button', { name: 'Update forms' }).click();
    await expect.poll(async () => (await b.t.c.domains.findOne({ _id: 'shop.test' }))?.formTracking).toEqual({ enabled: true, fields: ['budget', 'postcode'] });
    await page.reload();
    await expect.poll(() => card.getByLabel(/Also capture these fields/).inputValue(), { timeout: 10_000 }).toBe('budget\npostcode');
    await card.screenshot({ path: path.join(ARTIFACTS, 'forms-settings.png') });

    // Ada calls from the number she left, on an offline number (assigned: its call keeps its
    // status), answered, a minute: a call lead of the person who sent the form.
    await fetch(`${b.collector.baseUrl}/offline-numbers-api?${new URLSearchParams({ key: 'offline-test-key', action: 'assign', phone_number: '0155555555', description: 'Flyer', type: '6' })}`);
    expect((await reportCall(b.collector.baseUrl, { callRef: 'e2e-form-caller', trackingNumber: '0100000001', startDate: new Date(Date.now() + 1000), callerPhone: '0612345678', duration: 60 })).status).toBe(200);

    // The overview: two form leads (Ada's, and the one sent once consent was given), one call lead,
    // and two people who became leads: Ada once for her form and her call.
    await page.getByRole('link', { name: 'Overview' }).click();
    const tile = (label: string) => page.locator(`[data-tile="${label}"] strong`);
    await expect.poll(() => tile('Form leads').innerText(), { timeout: 10_000 }).toBe('2');
    expect(await tile('Call leads').innerText()).toBe('1');
    expect(await tile('People who became leads').innerText()).toBe('2');
    await page.screenshot({ path: path.join(ARTIFACTS, 'forms-overview.png'), fullPage: true });

    // The forms log: the contact form captured above, attributed; its person's timeline.
    await page.getByRole('link', { name: 'Forms' }).click();
    const row = page.locator('tr', { hasText: 'ada@example.com' });
    await row.waitFor({ timeout: 10_000 }).catch(async (err: Error) => {
      await page.screenshot({ path: path.join(ARTIFACTS, 'forms-log-failed.png'), fullPage: true });
      throw err;
    });
    expect(await row.locator('td').nth(1).innerText()).toBe('paid:google');
    expect(await row.innerText()).not.toMatch(/hunter2|4111 1111|4111111111111111/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'forms-log.png'), fullPage: true });
    await row.getByRole('link', { name: 'person' }).click();
    const timeline = page.getByTestId('timeline');
    await timeline.locator('[data-event=form]').waitFor({ timeout: 10_000 }).catch(async (err: Error) => {
      await page.screenshot({ path: path.join(ARTIFACTS, 'forms-person-failed.png'), fullPage: true });
      throw err;
    });
    await timeline.locator('[data-event=call]').waitFor({ timeout: 10_000 });
    expect(await timeline.locator('li').evaluateAll((items) => items.map((li) => li.getAttribute('data-event')))).toEqual(['visit', 'form', 'call']);
    await page.screenshot({ path: path.join(ARTIFACTS, 'forms-person.png'), fullPage: true });

    // On request, the person's data: downloaded whole, then erased; the contacts stay, anonymous.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: "Download this person's data" }).click()]);
    const exported = JSON.parse(await fs.readFile((await download.path())!, 'utf8'));
    expect(exported.forms.find((f: { fields: Record<string, string> }) => f.fields.name === 'Ada Lovelace')).toBeDefined();
    expect(exported.calls).toHaveLength(1);
    page.once('dialog', (dialog) => dialog.accept());
    await page.getByRole('button', { name: 'Erase this person' }).click();
    await expect.poll(() => page.getByRole('status').innerText(), { timeout: 10_000 }).toMatch(/^Erased: the personal fields of 1 call\(s\), 1 form\(s\)/);
    await page.getByText(/^Erased on request on /).waitFor({ timeout: 10_000 });
    expect(await page.locator('section').innerText()).not.toMatch(/Ada|ada@example.com|0612345678|06 12 34 56 78/);
    expect(await page.getByRole('button', { name: 'Erase this person' }).count()).toBe(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'forms-person-erased.png'), fullPage: true });
    await page.context().close();
  });

  it("marks a robot's instant submission spam", async () => {
    const page = await open();
    await page.evaluate(() => {
      const form = document.getElementById('contact') as HTMLFormElement;
      (form.elements.namedItem('email') as HTMLInputElement).value = 'robot@example.com';
      form.addEventListener('submit', (e) => e.preventDefault());
      form.requestSubmit();
    });
    await expect.poll(async () => (await b.t.c.forms.findOne({ email: 'robot@example.com' }))?.spam, { timeout: 10_000 }).toBe('too-fast');
  });
});
