// The `form` push (issue 43): opt-in by the account's webhookEvents; each form submission that is
// not spam, signed, as the data API shows it; an account that did not ask gets none.
import { browserPost } from '../helpers/site-page.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { commerceFixture, WEBHOOK_SECRET } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { startReceiver, verifiedPush, type Receiver } from '../helpers/receiver.ts';

const ORIGIN = 'https://shop.test';
const USER = { username: 'owner@shop.test', password: 'form-push-password' };
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

const f = commerceFixture({ ga4: false, webhookUrl: 'https://hooks.example/ringtrail', tracking: { users: [USER], settings: { formTracking: { enabled: true, fields: [] } } } });
const s = useSeededCollector('form_push', { accounts: [{ ...f.accounts[0]!, webhookEvents: ['form'] }] }, { delivery: { publicOnly: false } });
const post = (fields: Record<string, string | number>) => browserPost(s.collector.baseUrl, '/t/form', fields);

describe('the form push', () => {
  it('is sent signed for each submission that is not spam, as the data API shows it', async () => {
    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    await owner.call('PUT', '/account/webhook', { url: receiver.url() });
    const lead = await (await post({ key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/contact`, fields: JSON.stringify({ email: 'ada@example.com', message: 'Hello' }), elapsed_ms: 9000 })).json();
    await post({ key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/contact`, fields: JSON.stringify({ email: 'bot@example.com' }), honeypot: 'x', elapsed_ms: 9000 });
    await receiver.waitFor(1, (r) => verifiedPush(r, WEBHOOK_SECRET).type === 'form');
    // Everything queued is delivered (a push is in the outbox before the submission is answered):
    // one push, the spam none.
    await expect.poll(() => s.t.c.outbox.countDocuments({ label: 'form' })).toBe(0);
    const formPushes = () => receiver.received.map((r) => verifiedPush(r, WEBHOOK_SECRET)).filter((p) => p.type === 'form');
    const pushes = formPushes();
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({ formId: lead.formId, type: 'form', view: null, cart: null, order: null, form: { formId: lead.formId, form_id: lead.formId, fields: { email: 'ada@example.com', message: 'Hello' }, lead: true, spam: null } });
    // Turned off from the management API: nothing more.
    expect((await owner.call('PUT', '/account/webhook/events', { events: [] })).status).toBe(200);
    await post({ key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/contact`, fields: JSON.stringify({ email: 'later@example.com' }), elapsed_ms: 9000 });
    expect(await s.t.c.outbox.countDocuments({ label: 'form' })).toBe(0);
    expect(formPushes()).toHaveLength(1);
  });
});
