// The smaller holes of issue 52, each tried as an attacker or a careless request would: a secret
// shown to a role that only reads, a reset link that outlives a password change, a test mail sent in
// a loop, passwords of spaces, secrets typed into a form, another account's names named in a 409,
// a page stored as a recording, IPv6 spellings of loopback.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, refusedTarget } from '../../collector/src/webhooks/public-address.ts';
import { isCardNumber, isSecretField } from '../../collector/src/forms/secret-fields.ts';
import { visibleLength } from '../../collector/src/team/password-rules.ts';
import { seed, startCollector, testDatabase, useSeededCollector, type TestDatabase } from '../helpers/collector.ts';
import { domainNamed, trackingFixture, twoAccountsFixture } from '../helpers/fixtures.ts';
import { useMailedCollector } from '../helpers/mailed-collector.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { browserPost } from '../helpers/site-page.ts';
import { reportCall, TELEPHONY_KEY, twilioPost } from '../helpers/telephony.ts';
import { standInAccount, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const OWNER = { username: 'owner@shop.test', password: 'small holes owner password' };
const ANALYST = { username: 'analyst@shop.test', password: 'small holes analyst password', role: 'analyst', domains: ['shop.test'] };
const STRANGER = { username: 'stranger@elsewhere.test', password: 'small holes stranger password' };

const fixture = () => twoAccountsFixture({ users: [OWNER, ANALYST], settings: { ga4MeasurementId: 'G-SMALL1', ga4ApiSecret: 'the-ga4-api-secret', formTracking: { enabled: true, fields: [] } } }, { users: [STRANGER], label: 'elsewhere', offlineNumber: '0100000077' });

describe('secrets, links and names', () => {
  const m = useMailedCollector('small_holes', fixture(), { telephonyApiKey: TELEPHONY_KEY, delivery: { pollMs: 50, publicOnly: false }, publicUrl: 'https://calls.shop.test' });

  it('never shows the GA4 API secret, to any role, and keeps it when a change leaves it out', async () => {
    for (const who of [OWNER, ANALYST]) {
      const client = await signedInClient(m.collector.baseUrl, who.username, who.password);
      const [domain] = (await client.get('/domains')).body;
      expect(domain).toMatchObject({ ga4MeasurementId: 'G-SMALL1', ga4ApiSecretSet: true });
      expect(JSON.stringify(domain)).not.toContain('the-ga4-api-secret');
    }
    const owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PATCH', '/domains/shop.test', { ga4MeasurementId: 'G-SMALL2' })).status).toBe(200);
    expect(await m.t.c.domains.findOne({ _id: 'shop.test' })).toMatchObject({ ga4MeasurementId: 'G-SMALL2', ga4ApiSecret: 'the-ga4-api-secret' });
    // A new one: the activity log says it changed, never what it is.
    expect((await owner.call('PATCH', '/domains/shop.test', { ga4MeasurementId: 'G-SMALL2', ga4ApiSecret: 'a-new-ga4-secret' })).status).toBe(200);
    const [entry] = (await owner.get('/domains/shop.test/activity?kind=domain')).body.entries;
    expect(entry.details).toEqual({ settings: ['ga4ApiSecret'], changes: [{ field: 'ga4ApiSecret', changed: true }] });
    expect(JSON.stringify(await m.t.c.auditLog.find().toArray())).not.toContain('a-new-ga4-secret');
  });

  it('kills a reset link when its member changes their password, when a newer one is made, and when the member is removed', async () => {
    const owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
    const tokenOf = (url: string) => new URL(url.replace('#/accept?', '?')).searchParams.get('token')!;
    const check = async (token: string) => (await fetch(`${m.collector.baseUrl}/manage/api/invitations/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) })).json();
    const first = tokenOf((await owner.call('POST', `/account/members/${ANALYST.username}/reset`)).body.invitation.url);
    expect((await check(first)).kind).toBe('reset');
    const analyst = await signedInClient(m.collector.baseUrl, ANALYST.username, ANALYST.password);
    expect((await analyst.call('PUT', '/session/password', { current: ANALYST.password, password: 'a brand new analyst password' })).status).toBe(200);
    expect(await check(first)).toEqual({ error: 'This password reset link no longer works: the password was changed since it was made. Ask for a new one' });

    const second = tokenOf((await owner.call('POST', `/account/members/${ANALYST.username}/reset`)).body.invitation.url);
    const third = tokenOf((await owner.call('POST', `/account/members/${ANALYST.username}/reset`)).body.invitation.url);
    expect((await check(second)).error).toBe('This password reset link was revoked: ask for a new one');
    expect((await owner.call('DELETE', `/account/members/${ANALYST.username}`)).status).toBe(204);
    expect((await check(third)).error).toMatch(/revoked|removed/);
  });

  it('keeps no link token in the delivery log once a mail is sent', async () => {
    await fetch(`${m.collector.baseUrl}/manage/api/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: OWNER.username }) });
    await expect.poll(() => m.t.c.deliveryLog.countDocuments({ kind: 'mail', label: 'password-reset', outcome: 'delivered' })).toBeGreaterThan(0);
    for (const entry of await m.t.c.deliveryLog.find({ kind: 'mail' }).toArray()) {
      expect(entry.body).not.toMatch(/token=|unsubscribe\//);
      expect(JSON.parse(entry.body)).toEqual({ to: expect.any(String), subject: expect.any(String) });
    }
  });

  it("erases a person's alert mails from the delivery log with them", async () => {
    await reportCall(m.collector.baseUrl, { callRef: 'erased-caller', trackingNumber: '0100000001', startDate: new Date(), status: 'NORESPONSE', duration: 0, callerPhone: '0622000111' });
    await expect.poll(() => m.t.c.deliveryLog.countDocuments({ kind: 'mail', label: 'missed-call', outcome: 'delivered' }), { timeout: 30_000 }).toBe(1);
    const owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
    const { personId } = (await owner.get('/domains/shop.test/people?phone=0622000111')).body;
    expect(await m.t.c.deliveryLog.countDocuments({ personIds: personId })).toBe(1);
    expect((await owner.call('DELETE', `/domains/shop.test/people/${personId}`)).status).toBe(200);
    expect(await m.t.c.deliveryLog.countDocuments({ kind: 'mail', label: 'missed-call' })).toBe(0);
  });

  it('answers forgot-password alike for an address with a login and one without', async () => {
    const ask = async (username: string) => (await fetch(`${m.collector.baseUrl}/manage/api/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username }) })).json();
    const [known, unknown] = await Promise.all([ask(OWNER.username), ask('nobody@shop.test')]);
    expect(known.message.replace(OWNER.username, 'X')).toBe(unknown.message.replace('nobody@shop.test', 'X'));
    expect(known.mailSent).toBe(unknown.mailSent);
  });

  it('limits the test e-mails one member asks for', async () => {
    const owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await owner.call('POST', '/mail/test')).status);
    expect(statuses.filter((s) => s === 202).length).toBeLessThanOrEqual(5);
    const refused = await owner.call('POST', '/mail/test');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Too many test e-mails: retry in \d+ s$/);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it("never says another account holds a name: a domain, a login, a number", async () => {
    const stranger = await signedInClient(m.collector.baseUrl, STRANGER.username, STRANGER.password);
    expect(await stranger.call('POST', '/domains', { name: 'shop.test' })).toMatchObject({ status: 409, body: { error: 'shop.test is not available' } });
    expect(await stranger.call('POST', '/domains', { name: 'elsewhere.test' })).toMatchObject({ status: 409, body: { error: "elsewhere.test is already one of this account's domains" } });
    expect(await stranger.call('POST', '/account/members', { username: OWNER.username, role: 'analyst' })).toMatchObject({ status: 409, body: { error: `${OWNER.username} is not available: ask them to use another address` } });
    const numbers = await stranger.call('POST', '/domains/elsewhere.test/pools/1/numbers', { numbers: ['0800000001'] });
    expect(JSON.stringify(numbers.body)).not.toContain('shop.test');
  });

  it('drops passwords and card numbers at the form door, whatever sent them', async () => {
    const fields = { name: 'Ada', email: 'ada@example.com', password: 'hunter2hunter2', card_number: '4111 1111 1111 1111', note: '4111111111111111', pin: '1234', message: 'call me' };
    const sent = await browserPost(m.collector.baseUrl, '/t/form', { key: 'pk-test-key', visit_id: 0, url: 'https://shop.test/contact', fields: JSON.stringify(fields), honeypot: '', elapsed_ms: 9000 }, 'https://shop.test');
    const { formId } = (await sent.json()) as { formId: number };
    expect((await m.t.c.forms.findOne({ _id: formId }))!.fields).toEqual({ name: 'Ada', email: 'ada@example.com', message: 'call me' });
  });

  it('keeps only audio as a recording, and serves it with nosniff', async () => {
    const { body } = await reportCall(m.collector.baseUrl, { callRef: 'small-rec-1', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 60 });
    const upload = (data: string, type = 'audio/wav') => fetch(`${m.collector.baseUrl}/telephony/calls/${body.callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': type }, body: data });
    const page = await upload('<html><script>alert(document.cookie)</script></html>');
    expect(page.status).toBeGreaterThanOrEqual(400);
    expect((await m.t.c.calls.findOne({ _id: body.callId }))!.recording).toMatchObject({ status: 'failed' });
    expect(await m.t.db.collection('recordings.files').countDocuments({ 'metadata.callId': body.callId })).toBe(0);

    const other = await reportCall(m.collector.baseUrl, { callRef: 'small-rec-2', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 60 });
    const wav = `RIFF${'\u0000'.repeat(40)}WAVEdata`;
    expect((await fetch(`${m.collector.baseUrl}/telephony/calls/${other.body.callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'audio/wav' }, body: wav })).status).toBe(200);
    const served = await fetch(`${m.collector.baseUrl}/data-api/calls/${other.body.callId}/recording?api_key=data-test-key`);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe("the agents' report of a member granted some domains", () => {
  const shop = trackingFixture({ users: [OWNER, ANALYST] }).accounts[0]!;
  const s = useSeededCollector('small_holes_agents', { accounts: [{ ...shop, domains: [shop.domains[0]!, domainNamed('second', '0100000055')] }] }, { telephonyApiKey: TELEPHONY_KEY });
  it('counts only the domains they may see', async () => {
    for (const [callRef, trackingNumber, agent] of [['agents-shop', '0100000001', 'alice'], ['agents-second', '0100000055', 'bob']] as const) {
      const { body } = await reportCall(s.collector.baseUrl, { callRef, trackingNumber, startDate: new Date(), status: 'SUCCESS', duration: 60 });
      const set = await (await fetch(`${s.collector.baseUrl}/agent-api/setAgentToCall`, { method: 'POST', body: new URLSearchParams({ apiKey: 'cc-test-key', callId: String(body.callId), agent }) })).json();
      expect(set.status).toBe('OK');
    }
    const agentsOf = async (who: { username: string; password: string }) => ((await (await signedInClient(s.collector.baseUrl, who.username, who.password)).get('/reports/agents')).body.agents as { agent: string }[]).map((a) => a.agent).sort();
    expect(await agentsOf(OWNER)).toEqual(['alice', 'bob']);
    expect(await agentsOf(ANALYST)).toEqual(['alice']);
  });
});

describe('a recording source on a private address, outside development', () => {
  const s = useSeededCollector('small_holes_private_source', trackingFixture(), { telephonyApiKey: TELEPHONY_KEY, delivery: { pollMs: 50, publicOnly: true } });
  it('is refused for good, and the call says why and what would allow it', async () => {
    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'private-rec', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 60, recordingUrl: 'http://127.0.0.1:9/rec.wav' });
    await expect.poll(async () => (await s.t.c.calls.findOne({ _id: body.callId }))?.recording?.status).toBe('failed');
    expect((await s.t.c.calls.findOne({ _id: body.callId }))!.recording!.error).toBe('recording could not be fetched: recording address 127.0.0.1 is private: private and loopback sources are fetched only with ALLOW_PRIVATE_WEBHOOKS=true');
  });
});

describe('passwords of spaces and invisible characters', () => {
  const s = useSeededCollector('small_holes_passwords', trackingFixture());
  it('are refused at sign-up, counted after NFKC without invisible characters', async () => {
    const signUp = (password: string) => fetch(`${s.collector.baseUrl}/manage/api/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: `acct-${Math.random().toString(36).slice(2, 8)}`, username: `u${Math.random().toString(36).slice(2, 8)}@example.com`, password }) });
    for (const password of [' '.repeat(12), '\u200b'.repeat(14), '\u3000'.repeat(12), ' \u200b\u00a0'.repeat(5)]) {
      const answer = await signUp(password);
      expect([answer.status, await answer.json()]).toEqual([400, { error: 'password: must not be only spaces or invisible characters' }]);
    }
    const hidden = await signUp('ab\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u200bcd');
    expect([hidden.status, await hidden.json()]).toEqual([400, { error: 'password: must be at least 12 characters, not counting invisible characters' }]);
    // A passphrase's spaces count.
    expect((await signUp('rye and wheat')).status).toBe(201);
    expect([visibleLength('ｐａｓｓｗｏｒｄ１２３４'), visibleLength('e\u0301'.repeat(12))]).toEqual([12, 12]);
  });
});

describe('addresses a fetch must never reach', () => {
  it('refuses the IPv6 spellings of loopback as the IPv4 ones', () => {
    for (const address of ['::7f00:1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::1', '::', '::a00:1']) expect(isPublicAddress(address)).toBe(false);
    for (const url of ['http://[::7f00:1]/hook', 'http://[::127.0.0.1]/hook', 'http://[::ffff:127.0.0.1]/hook']) expect(refusedTarget(new URL(url), true, 'webhook')).toMatch(/is private/);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
  });

  it('tells secret form fields and card numbers from the others', () => {
    expect(['4111111111111111', '4111 1111 1111 1111', '5500-0000-0000-0004'].every(isCardNumber)).toBe(true);
    expect(['0612345678', '06 12 34 56 78', '+33 6 12 34 56 78', '4111111111111112'].some(isCardNumber)).toBe(false);
    expect(['password', 'newPassword', 'pwd', 'pin', 'cvv', 'card-number', 'cc-exp'].every((n) => isSecretField(n, 'x'))).toBe(true);
    expect(['name', 'email', 'phone', 'company', 'compass', 'shipping', 'spinner'].some((n) => isSecretField(n, 'x'))).toBe(false);
  });
});

describe('a SECRETS_KEY changed after a carrier account was connected', () => {
  const SID = 'AC99999999999999999999999999999999';
  const TOKEN = 'token-of-the-shop-twilio-account';
  let api: TwilioApiStandIn;
  let t: TestDatabase;
  beforeAll(async () => {
    api = await startTwilioApi([standInAccount(SID, TOKEN)]);
    t = await testDatabase('small_holes_secrets_key');
    await seed(t.c, trackingFixture({ users: [OWNER] }));
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  it('says so on the carrier card, and forwards its calls untracked instead of failing them', async () => {
    const first = await startCollector(t.db, { secretsKey: randomBytes(32), twilioApiBase: api.base });
    const before = await signedInClient(first.baseUrl, OWNER.username, OWNER.password);
    expect((await before.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: SID, authToken: TOKEN })).status).toBe(200);
    await first.close();

    const second = await startCollector(t.db, { secretsKey: randomBytes(32), twilioApiBase: api.base });
    try {
      const owner = await signedInClient(second.baseUrl, OWNER.username, OWNER.password);
      const card = await owner.get('/account/carrier');
      expect(card.status).toBe(200);
      expect(card.body.broken.error).toBe("The carrier account's credentials cannot be read: SECRETS_KEY changed since they were stored. Set the former SECRETS_KEY back, or connect the carrier account again");
      expect(await owner.get('/account/carrier/numbers')).toMatchObject({ status: 409, body: { error: card.body.broken.error } });
      const voice = await twilioPost(second.baseUrl, '/voice', { AccountSid: SID, CallSid: 'CA-unreadable-1', From: '+33611111111', To: '+33100000001', CallStatus: 'ringing' }, TOKEN);
      expect(voice.status).toBe(200);
      expect(voice.text).toMatch(/<Dial[^>]*>|not in service/);
      expect(await t.c.calls.countDocuments({ callRef: 'CA-unreadable-1' })).toBe(0);
    } finally {
      await second.close();
    }
  });
});
