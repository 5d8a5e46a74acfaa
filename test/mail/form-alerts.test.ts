// A form submission that is a lead raises the new-lead alert, as a call does (issues 40 and 43),
// read from a real SMTP server on loopback: the mail names the form's sender, where they came from
// and what they typed (as text: a tag in a field stays text), linking to their timeline; a spam
// submission raises nothing until a person's verdict makes it a lead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { browserPost } from '../helpers/site-page.ts';
import { startSmtp, type Inbox } from '../helpers/smtp.ts';

const OWNER = { username: 'owner@shop.test', password: 'form alerts owner password', alerts: { 'shop.test': { newLead: 'immediate' } } };
const PUBLIC_URL = 'https://calls.shop.test';

let t: TestDatabase;
let inbox: Inbox;
let collector: RunningCollector;
beforeAll(async () => {
  inbox = await startSmtp();
  t = await testDatabase('mail_form_alerts');
  await seed(t.c, trackingFixture({ users: [OWNER], settings: { formTracking: { enabled: true, fields: [] } } }));
  collector = await startCollector(t.db, {
    delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 400, publicOnly: false },
    mail: { smtpUrl: inbox.url, from: 'RingTrail <calls@shop.test>', timeoutMs: 2000 },
    publicUrl: PUBLIC_URL,
    alertTimings: { everyMs: 50, gatherMs: 100 },
  });
});
afterAll(async () => {
  await collector?.close();
  await t?.close();
  await inbox?.close();
});

const post = async (path: string, fields: Record<string, string | number>) => (await browserPost(collector.baseUrl, path, fields)).json();
/** A form sent from a page the visitor reached by a Google search; `elapsedMs` under 2 s is a robot's speed (spam). */
async function sendForm(fields: Record<string, string>, elapsedMs = 8000): Promise<number> {
  const view = await post('/t/view', { key: 'pk-test-key', visit_id: 0, url: 'https://shop.test/contact', page_title: 'Contact', referer_url: 'https://www.google.com/search?q=boiler+repair', phones: '' });
  return (await post('/t/form', { key: 'pk-test-key', visit_id: view.visitId, url: 'https://shop.test/contact', fields: JSON.stringify(fields), elapsed_ms: elapsedMs })).formId;
}

describe('form lead alerts', () => {
  it('mails a new lead for a form submission: its sender, source and fields as text, a link to their timeline', async () => {
    const formId = await sendForm({ name: 'Ada', email: 'ada@example.com', message: 'My boiler leaks <b>badly</b>' });
    const [mail] = await inbox.received(1);
    expect(mail!.subject).toBe('New lead: form from ada@example.com (shop.test)');
    expect(mail!.to).toMatchObject({ text: OWNER.username });
    expect(mail!.text).toContain('Form on: /contact');
    expect(mail!.text).toContain('Came from: a Google search, keyword boiler repair');
    expect(mail!.text).toContain('message: My boiler leaks <b>badly</b>');
    const personId = (await t.c.forms.findOne({ _id: formId }))!.personId;
    expect(mail!.text).toContain(`The form: ${PUBLIC_URL}/manage/#/shop.test/person?id=${personId}`);
    expect(mail!.html).toContain('My boiler leaks &#60;b&#62;badly&#60;/b&#62;');
    expect(mail!.html).not.toContain('<b>badly');
    await expect.poll(() => t.c.pendingAlerts.countDocuments()).toBe(0);
  });

  it('raises nothing for spam, and a new lead once a person says it is one', async () => {
    const before = inbox.messages.length;
    const formId = await sendForm({ email: 'quick@example.com' }, 100);
    expect((await t.c.forms.findOne({ _id: formId }))!.spam).toBe('too-fast');
    expect(await t.c.pendingAlerts.countDocuments()).toBe(0);
    const owner = await signedInClient(collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PUT', `/domains/shop.test/forms/${formId}/verdict`, { verdict: 'lead' })).status).toBe(200);
    const [mail] = (await inbox.received(before + 1)).slice(before);
    expect(mail!.subject).toBe('New lead: form from quick@example.com (shop.test)');
    // Said again, it raises nothing more.
    expect((await owner.call('PUT', `/domains/shop.test/forms/${formId}/verdict`, { verdict: 'lead' })).status).toBe(200);
    expect(await t.c.pendingAlerts.countDocuments()).toBe(0);
  });
});
