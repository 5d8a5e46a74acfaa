// The texting inbox (issue 68) against the loopback Twilio stand-in, with Twilio's signed webhooks: a
// text received opens a conversation with an unread count; a reply goes from the tracking number
// through the Messages API and is `delivered` by its signed status callback (never backwards; a
// forged or another account's callback refused); a landline is refused with Twilio's words; STOP
// blocks the next reply with its reason, START opens it again, HELP is answered once; analysts read
// only, agents reply and are assigned.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { twoAccountsFixture } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { twilioPost } from '../helpers/telephony.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';
import { until } from '../helpers/until.ts';

const A = { sid: 'AC77777777777777777777777777777777', token: 'token-of-texting-account-a' };
const B = { sid: 'AC88888888888888888888888888888888', token: 'token-of-texting-account-b' };
const OWNER = { username: 'owner@shop.test', password: 'texting owner password' };
const AGENT = { username: 'agent@shop.test', password: 'texting agent password', role: 'agent', domains: ['shop.test'] };
const ANALYST = { username: 'analyst@shop.test', password: 'texting analyst password', role: 'analyst', domains: ['shop.test'] };
const OTHER = { username: 'owner@other.test', password: 'texting other password' };
const TRACKING = '+33800000001';
const LEAD = '+33612345678';

let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(A.sid, A.token, { numbers: [standInNumber(TRACKING)] }), standInAccount(B.sid, B.token, { numbers: [standInNumber('+33100000099')] })]);
});
afterAll(() => api.close());

const s = useSeededCollector('texting_inbox', twoAccountsFixture({ users: [OWNER, AGENT, ANALYST] }, { users: [OTHER], label: 'other', offlineNumber: '0100000099' }), {
  secretsKey: randomBytes(32),
  metricsKey: 'texting-metrics-key',
  get twilioApiBase() {
    return api.base;
  },
});

let owner: ManageClient;
let agent: ManageClient;
let analyst: ManageClient;
let texts = 0;
/** A text from `from` to the tracking number, as Twilio's messaging webhook posts it. */
const textIn = (body: string, from = LEAD, sid = `SM-in-${++texts}`) => twilioPost(s.collector.baseUrl, '/sms', { AccountSid: A.sid, MessageSid: sid, From: from, To: TRACKING, Body: body, NumSegments: '1' }, A.token);
/** Twilio's status callback of a sent text, at the URL it was given, signed with `token`. */
function statusCallback(sent: { statusCallback: string | null; sid: string; from: string; to: string }, status: string, { token = A.token, accountSid = A.sid, errorCode }: { token?: string; accountSid?: string; errorCode?: string } = {}) {
  const url = new URL(sent.statusCallback!);
  return twilioPost(s.collector.baseUrl, `${url.pathname.replace('/telephony/twilio', '')}${url.search}`, { AccountSid: accountSid, MessageSid: sent.sid, MessageStatus: status, From: sent.from, To: sent.to, ...(errorCode ? { ErrorCode: errorCode } : {}) }, token);
}
const conversations = async (client: ManageClient, query = '') => (await client.get(`/domains/shop.test/conversations${query}`)).body;

describe('the texting inbox', () => {
  it('opens a conversation with an unread count for a text received, the texter a person', async () => {
    owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    agent = await signedInClient(s.collector.baseUrl, AGENT.username, AGENT.password);
    analyst = await signedInClient(s.collector.baseUrl, ANALYST.username, ANALYST.password);
    expect((await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: A.sid, authToken: A.token })).status).toBe(200);
    const other = await signedInClient(s.collector.baseUrl, OTHER.username, OTHER.password);
    expect((await other.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: B.sid, authToken: B.token })).status).toBe(200);

    expect((await textIn('Hello, is the boiler still on sale?')).status).toBe(200);
    expect((await textIn('And do you install on Saturdays?')).status).toBe(200);
    const list = await conversations(analyst);
    expect(list).toMatchObject({ total: 1, unreadConversations: 1 });
    expect(list.conversations[0]).toMatchObject({ phone: '06 12 34 56 78', trackingNumber: '08 00 00 00 01', unread: 2, lastText: 'And do you install on Saturdays?', lastDirection: 'inbound', assignee: null, optedOut: null });
    expect(typeof list.conversations[0].personId).toBe('number');
    const thread = (await analyst.get(`/domains/shop.test/conversations/${list.conversations[0].id}`)).body;
    expect(thread.entries.map((e: { type: string; body: string }) => [e.type, e.body])).toEqual([['text', 'Hello, is the boiler still on sale?'], ['text', 'And do you install on Saturdays?']]);
    // The same webhook again (Twilio retries): nothing twice.
    await textIn('And do you install on Saturdays?', LEAD, `SM-in-${texts}`);
    expect((await conversations(owner)).conversations[0].unread).toBe(2);
  });

  it('sends a reply from the tracking number, delivered by its signed status callback, never backwards; a forged or foreign callback changes nothing', async () => {
    const [conversation] = (await conversations(agent)).conversations;
    const reply = await agent.call('POST', `/domains/shop.test/conversations/${conversation.id}/messages`, { body: 'Yes, and we install on Saturdays. Shall we call you?' });
    expect(reply).toMatchObject({ status: 201, body: { direction: 'outbound', status: 'queued', segments: 1, by: AGENT.username } });
    const sent = api.messages.at(-1)!;
    expect(sent).toMatchObject({ accountSid: A.sid, from: TRACKING, to: LEAD, body: 'Yes, and we install on Saturdays. Shall we call you?' });
    expect(sent.statusCallback).toContain('/telephony/twilio/text-status?text=');

    expect((await statusCallback(sent, 'delivered', { token: 'a-forged-token' })).status).toBe(403);
    expect((await statusCallback(sent, 'delivered', { token: B.token, accountSid: B.sid })).status).toBe(403);
    const textOf = async () => (await agent.get(`/domains/shop.test/conversations/${conversation.id}`)).body.entries.find((e: { id?: string }) => e.id === reply.body.id);
    expect((await textOf()).status).toBe('queued');

    expect((await statusCallback(sent, 'sent')).status).toBe(200);
    expect((await statusCallback(sent, 'delivered')).status).toBe(200);
    expect((await statusCallback(sent, 'sent')).status).toBe(200);
    expect(await textOf()).toMatchObject({ status: 'delivered', error: null });
    const list = await conversations(agent);
    expect(list.conversations[0]).toMatchObject({ lastDirection: 'outbound', lastText: 'Yes, and we install on Saturdays. Shall we call you?' });
  });

  it('says why a text was not delivered, and refuses a number that cannot take texts with Twilio\'s words', async () => {
    const [conversation] = (await conversations(owner)).conversations;
    const reply = await owner.call('POST', `/domains/shop.test/conversations/${conversation.id}/messages`, { body: 'Are you there?' });
    await statusCallback(api.messages.at(-1)!, 'undelivered', { errorCode: '30003' });
    const thread = (await owner.get(`/domains/shop.test/conversations/${conversation.id}`)).body;
    expect(thread.entries.find((e: { id?: string }) => e.id === reply.body.id)).toMatchObject({ status: 'undelivered', error: 'the phone is unreachable (off, or out of coverage) (Twilio error 30003)' });

    api.landlines.add('+33145678900');
    await textIn('Bonjour', '+33145678900');
    const landline = (await conversations(owner)).conversations.find((c: { phone: string }) => c.phone === '01 45 67 89 00');
    const refused = await owner.call('POST', `/domains/shop.test/conversations/${landline.id}/messages`, { body: 'Bonjour !' });
    expect(refused).toMatchObject({ status: 400, body: { error: "Twilio cannot text this number: 'To' number +33145678900 is not a valid mobile number (Twilio error 21614)" } });
  });

  it('blocks replies after STOP with its reason, opens them again after START, and answers HELP once', async () => {
    const [conversation] = (await conversations(owner)).conversations.filter((c: { phone: string }) => c.phone === '06 12 34 56 78');
    await textIn('Stop');
    const stopped = await agent.call('POST', `/domains/shop.test/conversations/${conversation.id}/messages`, { body: 'One more thing' });
    expect(stopped.status).toBe(400);
    expect(stopped.body.error).toMatch(/^This number opted out: they texted STOP on \d{4}-\d{2}-\d{2}\. No text is sent to them until they text START$/);
    expect((await conversations(agent)).conversations.find((c: { id: string }) => c.id === conversation.id).optedOut).toMatchObject({ word: 'STOP' });

    const before = api.messages.length;
    await textIn('help', LEAD, 'SM-help-1');
    await textIn('help', LEAD, 'SM-help-1');
    await until(async () => api.messages.length > before, 'the answer to HELP');
    expect(api.messages.slice(before)).toEqual([expect.objectContaining({ to: LEAD, from: TRACKING, body: expect.stringContaining('Test account: you are texting the team of Test account. Reply STOP') })]);

    await textIn('START');
    expect((await agent.call('POST', `/domains/shop.test/conversations/${conversation.id}/messages`, { body: 'Welcome back' })).status).toBe(201);
  });

  it('lets analysts read only, and assigns a conversation to an agent, read by them', async () => {
    const [conversation] = (await conversations(owner)).conversations.filter((c: { phone: string }) => c.phone === '06 12 34 56 78');
    expect((await analyst.call('POST', `/domains/shop.test/conversations/${conversation.id}/messages`, { body: 'Hi' })).status).toBe(403);
    expect((await analyst.call('PUT', `/domains/shop.test/conversations/${conversation.id}`, { assignee: AGENT.username })).status).toBe(403);
    expect((await owner.call('PUT', `/domains/shop.test/conversations/${conversation.id}`, { assignee: ANALYST.username })).status).toBe(400);
    expect((await owner.call('PUT', `/domains/shop.test/conversations/${conversation.id}`, { assignee: AGENT.username })).body).toMatchObject({ assignee: AGENT.username });
    expect((await conversations(agent, '?mine=true')).conversations.map((c: { id: string }) => c.id)).toEqual([conversation.id]);
    expect((await conversations(owner, '?mine=true')).conversations).toEqual([]);
    expect((await agent.call('PUT', `/domains/shop.test/conversations/${conversation.id}`, { read: true })).body).toMatchObject({ unread: 0 });
    expect((await conversations(agent, '?unread=true')).conversations.map((c: { id: string }) => c.id)).not.toContain(conversation.id);
    const metrics = await (await fetch(`${s.collector.baseUrl}/metrics`, { headers: { authorization: 'Bearer texting-metrics-key' } })).text();
    expect(metrics).toMatch(/ringtrail_texts_total\{direction="inbound",result="received"\} \d+/);
    expect(metrics).toMatch(/ringtrail_texts_total\{direction="outbound",result="delivered"\} 1/);
  });

  it("exports a person's opt-out and texts with them, and keeps the opt-out as a hash alone through an erase", async () => {
    const QUITTER = '+33699990000';
    await textIn('Who is this?', QUITTER);
    await textIn('QUIT', QUITTER);
    const conversation = (await conversations(owner)).conversations.find((c: { phone: string }) => c.phone === '06 99 99 00 00');
    const exported = JSON.parse((await owner.get(`/domains/shop.test/people/${conversation.personId}/export`)).text);
    expect(exported.opt_outs).toEqual([{ phone: '0699990000', word: 'QUIT', at: expect.any(String) }]);
    expect(exported.conversations).toEqual([{ conversation_id: conversation.id, tracking_number: '0800000001', texts: [expect.objectContaining({ direction: 'inbound', body: 'Who is this?' }), expect.objectContaining({ direction: 'inbound', body: 'QUIT' })] }]);

    const erased = await owner.call('DELETE', `/domains/shop.test/people/${conversation.personId}`);
    expect(erased).toMatchObject({ status: 200, body: { conversations: 1 } });
    const thread = (await owner.get(`/domains/shop.test/conversations/${conversation.id}`)).body;
    expect(thread.conversation.phone).toBe('erased');
    expect(thread.entries.filter((e: { type: string }) => e.type === 'text').map((e: { body: string | null }) => e.body)).toEqual([null, null]);
    expect(JSON.stringify(await s.t.c.optOuts.find({ domainId: 'shop.test' }).toArray())).not.toContain('699990000');

    // They text again: their opt-out still holds, by its hash.
    await textIn('Hello again', QUITTER);
    const again = (await conversations(owner)).conversations.find((c: { phone: string }) => c.phone === '06 99 99 00 00');
    expect(again.optedOut).toMatchObject({ word: 'QUIT' });
    expect((await owner.call('POST', `/domains/shop.test/conversations/${again.id}/messages`, { body: 'Hi!' })).body.error).toContain('This number opted out: they texted QUIT');
  });
});
