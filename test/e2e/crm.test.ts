// The CRM in Chromium (issue 67): HubSpot connected from the Settings card (a refused token says
// HubSpot's words and keeps nothing), a call's page linking into HubSpot, the card's deliveries, and
// a broken connection said on the card, the person's page listing their records; Salesforce by the
// JWT bearer flow beside it, its Lead and Task linked, a call waiting behind its broken connection
// shown queued. Screenshots in test-artifacts/.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { useDesktopPage } from '../helpers/chromium.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { startHubSpot } from '../helpers/hubspot-stand-in.ts';
import { startSalesforce } from '../helpers/salesforce-stand-in.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { until } from '../helpers/until.ts';

const hs = await startHubSpot();
afterAll(() => hs.close());
const sf = await startSalesforce();
afterAll(() => sf.close());
const OWNER = { username: 'ada@acme.example', password: 'crm e2e password' };
const s = useSeededCollector('crm_e2e', trackingFixture({ users: [OWNER] }), { telephonyApiKey: TELEPHONY_KEY, secretsKey: randomBytes(32), hubspotApiBase: hs.base, salesforceLoginUrl: sf.base, delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false } });

const chrome = useDesktopPage();

describe('the CRM in the back end', () => {
  it('connects HubSpot, links a call into it, lists the delivery, and says when the connection breaks', async () => {
    await signIn(chrome.page, s.collector.baseUrl, OWNER);
    await chrome.page.goto(`${s.collector.baseUrl}/manage/#/shop.test/settings`);
    const card = chrome.page.getByTestId('crm-settings');
    await card.getByLabel('HubSpot private app access token').fill('pat-na1-not-the-token');
    await card.getByRole('button', { name: 'Connect HubSpot' }).click();
    await card.getByText('HubSpot refuses the token (401)').waitFor();
    expect(await s.t.c.crmConnections.countDocuments()).toBe(0);
    await card.getByLabel('HubSpot private app access token').fill(hs.token);
    await card.getByLabel('Default owner').fill('7002');
    await card.getByRole('button', { name: 'Connect HubSpot' }).click();
    await card.getByTestId('crm-status').waitFor();
    expect(await card.getByTestId('crm-status').textContent()).toContain('HubSpot portal 12345678');

    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'crm-e2e-1', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 75, callerPhone: '0612345678' });
    // Kept as delivered, then marked on the call: the page reads the call.
    await until(async () => Boolean((await s.t.c.calls.findOne({ _id: body.callId }))?.crmRecords?.length), 'the call in HubSpot');
    await chrome.page.goto(`${s.collector.baseUrl}/manage/#/shop.test/call?id=${body.callId}`);
    const records = chrome.page.getByTestId('crm-records');
    await records.waitFor();
    const contact = hs.objects.contacts[0]!;
    expect(await records.getByRole('link', { name: contact.id }).getAttribute('href')).toBe(`https://app.hubspot.com/contacts/12345678/record/0-1/${contact.id}`);
    expect(await records.textContent()).toContain('sent');
    await records.screenshot({ path: path.join(ARTIFACTS, 'crm-call-page.png') });

    // The person's page lists their records in HubSpot too.
    const personId = (await s.t.c.calls.findOne({ _id: body.callId }))!.personId!;
    await chrome.page.goto(`${s.collector.baseUrl}/manage/#/shop.test/person?id=${personId}`);
    const personRecords = chrome.page.getByTestId('crm-records');
    await personRecords.waitFor();
    expect(await personRecords.getByRole('link', { name: contact.id }).getAttribute('href')).toBe(`https://app.hubspot.com/contacts/12345678/record/0-1/${contact.id}`);
    expect(await personRecords.getByRole('link', { name: hs.objects.calls[0]!.id }).count()).toBe(1);

    // The token is revoked in HubSpot: the next delivery breaks the connection, and the card says so.
    hs.token = 'pat-na1-revoked';
    await reportCall(s.collector.baseUrl, { callRef: 'crm-e2e-2', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 40, callerPhone: '0698765432' });
    await until(async () => Boolean((await s.t.c.crmConnections.findOne({}))?.broken), 'the connection broken');
    await chrome.page.goto(`${s.collector.baseUrl}/manage/#/shop.test/settings`);
    await card.getByTestId('crm-broken').waitFor();
    expect(await card.getByTestId('crm-broken').textContent()).toContain('Broken since');
    expect(await card.getByTestId('crm-deliveries').textContent()).toContain(`Call ${body.callId}`);
    await card.screenshot({ path: path.join(ARTIFACTS, 'crm-settings-broken.png') });

    // The token works again in HubSpot: the card's Test says so and mends the connection.
    hs.token = 'pat-na1-11111111-2222-3333-4444-555555555555';
    await card.getByRole('button', { name: 'Test' }).click();
    await card.getByText('HubSpot takes the credentials.').waitFor();
    await until(async () => (await card.getByTestId('crm-broken').count()) === 0, 'the broken notice gone');
    expect(await card.getByTestId('crm-status').textContent()).toContain('connected');
  }, 90_000);

  it('connects Salesforce beside it by the JWT bearer flow, links the Lead and the Task, and shows what waits behind a broken connection', async () => {
    await chrome.page.goto(`${s.collector.baseUrl}/manage/#/shop.test/settings`);
    const card = chrome.page.getByTestId('crm-settings');
    await card.getByRole('radio', { name: 'Salesforce' }).check();
    const form = card.getByTestId('crm-salesforce');
    await form.getByLabel('Consumer key').fill(sf.app.clientId);
    await form.getByLabel('Username').fill(sf.app.username);
    await form.getByLabel("The certificate's private key").fill(sf.app.privateKey);
    await form.getByLabel('Default owner').fill('0055g0000022222AAA');
    await form.getByRole('button', { name: 'Connect Salesforce' }).click();
    await form.getByTestId('crm-status').waitFor();
    expect(await form.getByTestId('crm-status').textContent()).toContain('Salesforce org Acme Corp');

    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'crm-e2e-sf', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 62, callerPhone: '0611112222' });
    await until(async () => Boolean((await s.t.c.calls.findOne({ _id: body.callId }))?.crmRecords?.some((r) => r.crm === 'salesforce')), 'the call in Salesforce');
    await chrome.page.goto(`${s.collector.baseUrl}/manage/#/shop.test/call?id=${body.callId}`);
    const records = chrome.page.getByTestId('crm-records');
    await records.waitFor();
    const lead = sf.records.Lead![0]!;
    expect(await records.getByRole('link', { name: lead.Id }).getAttribute('href')).toBe(`${sf.base}/${lead.Id}`);
    expect(await records.textContent()).toContain('Salesforce Lead');
    expect(await records.textContent()).toContain('Salesforce Task');

    // The integration user loses its approval: the next call waits, queued, on a broken connection.
    sf.app.username = 'someone-else@acme.example';
    sf.expireSessions();
    const waiting = await reportCall(s.collector.baseUrl, { callRef: 'crm-e2e-sf-2', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 30, callerPhone: '0611113333' });
    await until(async () => Boolean((await s.t.c.crmConnections.findOne({ crm: 'salesforce' }))?.broken), 'the Salesforce connection broken');
    await chrome.page.goto(`${s.collector.baseUrl}/manage/#/shop.test/settings`);
    await card.getByRole('radio', { name: 'Salesforce' }).check();
    await form.getByTestId('crm-broken').waitFor();
    expect(await form.getByTestId('crm-broken').textContent()).toContain("Salesforce refuses the credentials (400): invalid_grant: user hasn't approved this consumer");
    const row = form.getByTestId('crm-deliveries').getByRole('row').filter({ hasText: `Call ${waiting.body.callId}` });
    expect(await row.textContent()).toContain('queued');
    await card.screenshot({ path: path.join(ARTIFACTS, 'crm-salesforce-broken.png') });
  }, 90_000);
});
