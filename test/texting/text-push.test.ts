// The `text` and `text-status` pushes (issue 68): opt-in by the account's webhookEvents; each text
// received or sent, and each status a sent text's carrier callback moves it to (once: a callback
// saying it again pushes nothing), signed, ordered per conversation.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { commerceFixture, WEBHOOK_SECRET } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { startReceiver, verifiedPush, type Receiver } from '../helpers/receiver.ts';
import { twilioPost } from '../helpers/telephony.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const TWILIO = { sid: 'AC34343434343434343434343434343434', token: 'token-of-the-text-push-account' };
const USER = { username: 'owner@shop.test', password: 'text push owner password' };
const TRACKING = '+33800000001';
let receiver: Receiver;
let api: TwilioApiStandIn;
beforeAll(async () => {
  receiver = await startReceiver();
  api = await startTwilioApi([standInAccount(TWILIO.sid, TWILIO.token, { numbers: [standInNumber(TRACKING)] })]);
});
afterAll(async () => {
  await receiver?.close();
  await api?.close();
});
const f = commerceFixture({ ga4: false, webhookUrl: 'https://hooks.example/ringtrail', tracking: { users: [USER] } });
const s = useSeededCollector('text_push', { accounts: [{ ...f.accounts[0]!, webhookEvents: ['text', 'text-status'] }] }, {
  secretsKey: randomBytes(32),
  delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false },
  get twilioApiBase() {
    return api.base;
  },
});

describe('the text pushes', () => {
  it('pushes each text received and sent, and each status a callback moves a sent text to, once', async () => {
    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    await owner.call('PUT', '/account/webhook', { url: receiver.url() });
    expect((await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: TWILIO.sid, authToken: TWILIO.token })).status).toBe(200);
    await twilioPost(s.collector.baseUrl, '/sms', { AccountSid: TWILIO.sid, MessageSid: 'SM-push-1', From: '+33612345678', To: TRACKING, Body: 'Is it still available?', NumSegments: '1' }, TWILIO.token);
    const [conversation] = (await owner.get('/domains/shop.test/conversations')).body.conversations;
    const reply = await owner.call('POST', `/domains/shop.test/conversations/${conversation.id}/messages`, { body: 'Yes it is.' });
    const sent = api.messages.at(-1)!;
    const callback = new URL(sent.statusCallback!);
    const status = (value: string) => twilioPost(s.collector.baseUrl, `${callback.pathname.replace('/telephony/twilio', '')}${callback.search}`, { AccountSid: TWILIO.sid, MessageSid: sent.sid, MessageStatus: value, From: sent.from, To: sent.to }, TWILIO.token);
    await status('delivered');
    await status('delivered');
    await receiver.waitFor(3, (r) => ['text', 'text-status'].includes(verifiedPush(r, WEBHOOK_SECRET).type as string));
    await expect.poll(() => s.t.c.outbox.countDocuments({ label: { $in: ['text', 'text-status'] } })).toBe(0);
    const pushes = receiver.received.map((r) => verifiedPush(r, WEBHOOK_SECRET)).filter((p) => ['text', 'text-status'].includes(p.type as string));
    expect(pushes).toEqual([
      { type: 'text', view: null, cart: null, order: null, text: expect.objectContaining({ conversation_id: conversation.id, direction: 'inbound', phone: '0612345678', tracking_phone: '0800000001', body: 'Is it still available?', status: 'received', person_id: conversation.personId }) },
      { type: 'text', view: null, cart: null, order: null, text: expect.objectContaining({ text_id: reply.body.id, direction: 'outbound', body: 'Yes it is.', status: 'queued', by: USER.username }) },
      { type: 'text-status', view: null, cart: null, order: null, textStatus: expect.objectContaining({ text_id: reply.body.id, conversation_id: conversation.id, status: 'delivered', error: null }) },
    ]);
  });
});
