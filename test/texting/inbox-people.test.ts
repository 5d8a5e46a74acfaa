// The inbox knows people (issue 81), against the loopback Twilio stand-in with Twilio's signed
// webhooks: a texter named by their form, renamed by a member (a later form never overwrites it);
// notes for the team; the source only on texts a visit led to (never STOP or HELP, nor a text sent
// while another visit holds the number); HELP answered with the business's name (the account's by
// default, the domain's setting when given); an MMS's picture read through the carrier, byte for byte.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { browserPost } from '../helpers/site-page.ts';
import { twilioPost } from '../helpers/telephony.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';
import { until } from '../helpers/until.ts';

const A = { sid: 'AC81818181818181818181818181818181', token: 'token-of-the-inbox-people-account' };
const OWNER = { username: 'owner@shop.test', password: 'inbox people owner password' };
const ANALYST = { username: 'analyst@shop.test', password: 'inbox people analyst password', role: 'analyst', domains: ['shop.test'] };
const NUMBERS = ['+33800000001', '+33800000002', '+33800000003'];
/** A real picture (the back end's screenshot in the docs), as a phone would send a photo. */
const PICTURE = readFileSync(new URL('../../docs/back-end-overview.png', import.meta.url));

let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(A.sid, A.token, { numbers: NUMBERS.map((n) => standInNumber(n)) })]);
});
afterAll(() => api.close());

const s = useSeededCollector('texting_people', trackingFixture({ users: [OWNER, ANALYST], settings: { formTracking: { enabled: true, fields: [] } } }), {
  secretsKey: randomBytes(32),
  get twilioApiBase() {
    return api.base;
  },
});

let owner: ManageClient;
let analyst: ManageClient;
let sids = 0;
const textIn = (to: string, from: string, body: string, extra: Record<string, string> = {}) => twilioPost(s.collector.baseUrl, '/sms', { AccountSid: A.sid, MessageSid: `SM-people-${++sids}`, From: from, To: to, Body: body, NumSegments: '1', ...extra }, A.token);
const conversationWith = async (phone: string) => ((await owner.get('/domains/shop.test/conversations')).body.conversations as { id: string; phone: string; name: string | null }[]).find((c) => c.phone === phone)!;
const threadOf = async (id: string, client = owner) => (await client.get(`/domains/shop.test/conversations/${id}`)).body;
const textsOf = async (id: string) => (await threadOf(id)).entries.filter((e: { type: string }) => e.type === 'text');

describe('the inbox knows people', () => {
  let held: string;
  beforeAll(async () => {
    owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    analyst = await signedInClient(s.collector.baseUrl, ANALYST.username, ANALYST.password);
    expect((await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: A.sid, authToken: A.token })).status).toBe(200);
    // A visitor from a Google ad holds a number.
    const view = await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_campaign=spring', ip: '198.51.100.81' }));
    held = `+33${view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '').slice(1)}`;
  });

  it('says where a text came from only when a visit led to it: never for STOP or HELP, nor for a later text while another visit holds the number', async () => {
    await textIn(held, '+33611111111', 'STOP');
    await textIn(held, '+33622222222', 'Hello, can you quote a new boiler?');
    await textIn(held, '+33622222222', 'It is for a flat of 60 m2');
    await textIn(held, '+33622222222', 'HELP');
    const stranger = await conversationWith('06 11 11 11 11');
    expect((await textsOf(stranger.id)).map((t: { body: string; source: unknown }) => [t.body, t.source])).toEqual([['STOP', null]]);
    const lead = await conversationWith('06 22 22 22 22');
    const texts = await textsOf(lead.id);
    expect(texts.filter((t: { direction: string }) => t.direction === 'inbound').map((t: { body: string; source: unknown }) => [t.body, t.source])).toEqual([
      ['Hello, can you quote a new boiler?', 'paid:google'],
      ['It is for a flat of 60 m2', 'paid:google'],
      ['HELP', null],
    ]);
    // The number passes to another visitor: the lead's next text is not that visit's.
    expect((await s.collector.post('/ospExpiration', { api_key: 'track-test-key', surtax_phone: `0${held.slice(3)}`, expiration: 0 })).body.status).toBe('OK');
    let passed = false;
    for (let i = 0; i < NUMBERS.length && !passed; i++) {
      const next = await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/?utm_source=newsletter&utm_medium=email', ip: `198.51.100.${90 + i}` }));
      passed = next.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '') === `0${held.slice(3)}`;
    }
    expect(passed).toBe(true);
    await textIn(held, '+33622222222', 'Are you there?');
    expect((await textsOf(lead.id)).find((t: { body: string }) => t.body === 'Are you there?')).toMatchObject({ direction: 'inbound', source: null });
  });

  it("answers HELP with the business's name: the account's by default, then the domain's own", async () => {
    await until(async () => api.messages.some((m) => m.to === '+33622222222'), 'the answer to HELP');
    expect(api.messages.filter((m) => m.to === '+33622222222').map((m) => m.body)).toEqual(['Test account: you are texting the team of Test account. Reply STOP to stop texts, START to get them again. Msg & data rates may apply.']);
    const set = await owner.call('PUT', '/domains/shop.test/texting', { businessName: 'Martin Plumbing', helpText: null, savedReplies: [] });
    expect(set).toMatchObject({ status: 200, body: { businessName: 'Martin Plumbing' } });
    expect((await owner.get('/domains/shop.test/texting')).body).toMatchObject({ defaultBusinessName: 'Test account', helpTextSent: expect.stringMatching(/^Martin Plumbing: you are texting the team of Martin Plumbing\. Reply STOP/) });
    const before = api.messages.length;
    await textIn(held, '+33633333333', 'info');
    await until(async () => api.messages.length > before, 'the second answer to HELP');
    expect(api.messages.at(-1)).toMatchObject({ to: '+33633333333', body: expect.stringMatching(/^Martin Plumbing: /) });
    const refused = await owner.call('PUT', '/domains/shop.test/texting', { businessName: '', helpText: null, savedReplies: [] });
    expect(refused).toMatchObject({ status: 400, body: { error: expect.stringContaining('businessName: must not be empty') } });
  });

  it('names a texter from their form, lets a member rename them, and a later form never overwrites what the member set', async () => {
    const form = (name: string) => browserPost(s.collector.baseUrl, '/t/form', { key: 'pk-test-key', visit_id: 0, url: 'https://shop.test/contact', fields: JSON.stringify({ name, phone: '06 44 44 44 44', message: 'Please text me' }), elapsed_ms: 9000 });
    expect((await form('Jane Carter')).status).toBe(200);
    await textIn(held, '+33644444444', 'I sent the form just now');
    const texter = await conversationWith('06 44 44 44 44');
    expect(texter.name).toBe('Jane Carter');
    expect((await threadOf(texter.id)).conversation).toMatchObject({ name: 'Jane Carter', phone: '06 44 44 44 44' });

    expect((await analyst.call('PUT', `/domains/shop.test/conversations/${texter.id}`, { name: 'Someone' })).status).toBe(403);
    const renamed = await owner.call('PUT', `/domains/shop.test/conversations/${texter.id}`, { name: '  Jane Carter-Lopez ' });
    expect(renamed).toMatchObject({ status: 200, body: { name: 'Jane Carter-Lopez' } });
    await form('J. C.');
    expect((await conversationWith('06 44 44 44 44')).name).toBe('Jane Carter-Lopez');
    expect((await owner.call('PUT', `/domains/shop.test/conversations/${texter.id}`, { name: 'x'.repeat(81) })).body.error).toContain('name: must be at most 80 characters');
    // The log says a name was set, never the name.
    const logged = await s.t.c.auditLog.findOne({ action: 'conversation.change', 'details.named': true });
    expect(JSON.stringify(logged)).not.toContain('Carter');
  });

  it('keeps notes for the team in the thread, never texted', async () => {
    const texter = await conversationWith('06 44 44 44 44');
    const sentBefore = api.messages.length;
    const note = await owner.call('POST', `/domains/shop.test/conversations/${texter.id}/notes`, { text: 'Wants a quote for the kitchen; call after 5 pm.' });
    expect(note).toMatchObject({ status: 201, body: { by: OWNER.username, text: 'Wants a quote for the kitchen; call after 5 pm.' } });
    expect((await analyst.call('POST', `/domains/shop.test/conversations/${texter.id}/notes`, { text: 'x' })).status).toBe(403);
    expect((await owner.call('POST', `/domains/shop.test/conversations/${texter.id}/notes`, { text: '   ' })).body.error).toContain('text: must not be empty');
    const entries = (await threadOf(texter.id, analyst)).entries;
    expect(entries.at(-1)).toMatchObject({ type: 'note', by: OWNER.username, text: 'Wants a quote for the kitchen; call after 5 pm.' });
    expect(api.messages.length).toBe(sentBefore);
  });

  it("shows an MMS's picture, read from Twilio with the account's credentials, byte for byte; nothing of another conversation", async () => {
    const url = api.addMedia(A.sid, 'image/png', PICTURE);
    await textIn(held, '+33655555555', '', { NumMedia: '1', MediaUrl0: url, MediaContentType0: 'image/png' });
    const texter = await conversationWith('06 55 55 55 55');
    const [text] = await textsOf(texter.id);
    expect(text).toMatchObject({ body: '', media: [{ contentType: 'image/png' }] });
    expect((await conversationWith('06 55 55 55 55')) as unknown).toMatchObject({ lastText: '(picture)' });
    const picture = await fetch(`${s.collector.baseUrl}/manage/api/domains/shop.test/conversations/${texter.id}/texts/${encodeURIComponent(text.id)}/media/0`, { headers: { cookie: analyst.cookie } });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await picture.arrayBuffer()).equals(PICTURE)).toBe(true);
    const other = await conversationWith('06 44 44 44 44');
    expect((await owner.get(`/domains/shop.test/conversations/${other.id}/texts/${encodeURIComponent(text.id)}/media/0`)).status).toBe(404);
    expect((await owner.get(`/domains/shop.test/conversations/${texter.id}/texts/${encodeURIComponent(text.id)}/media/1`)).status).toBe(404);
  });
});
