// Mail, configured once (issue 40): SMTP_URL and MAIL_FROM, a test e-mail a member sends themselves
// through a real SMTP server on loopback, delivered by the outbox: retried when the server answers
// 4xx or never answers, given up on a 5xx and shown in Settings; without SMTP_URL nothing is sent
// and the back end says so.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../collector/src/config.ts';
import { seed, startCollector, testDatabase, useSeededCollector, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { startSmtp, type Inbox } from '../helpers/smtp.ts';

const OWNER = { username: 'owner@shop.test', password: 'mail owner password' };
const FAST = { pollMs: 50, firstRetryMs: 100, maxRetryMs: 400, publicOnly: false };
const METRICS_KEY = 'mail-metrics-key-0123';

describe('mail configuration', () => {
  it('refuses to start on a malformed SMTP_URL or MAIL_FROM, naming the variable', () => {
    expect(() => loadConfig({ SMTP_URL: 'mail.example.com:587' })).toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'not an address' })).toThrow(/MAIL_FROM: must be an e-mail address/);
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'Acme Calls <calls@acme.example>' }).mail).toEqual({ smtpUrl: 'smtps://u:p@mail.example.com:465', from: 'Acme Calls <calls@acme.example>' });
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example.com', PUBLIC_URL: 'https://calls.acme.example' }).mail?.from).toBe('RingTrail <ringtrail@calls.acme.example>');
    expect(loadConfig({}).mail).toBeUndefined();
  });
});

describe('without SMTP_URL', () => {
  const s = useSeededCollector('mail_off', trackingFixture({ users: [OWNER] }));

  it('sends nothing, and the back end says so', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.get('/config')).body).toMatchObject({ mail: false });
    expect((await owner.get('/mail')).body).toEqual({ configured: false, from: null, failures: [] });
    expect(await owner.call('POST', '/mail/test')).toMatchObject({ status: 409, body: { error: 'Mail is not configured: set SMTP_URL (and MAIL_FROM) and restart the collector' } });
    expect(await s.t.c.outbox.countDocuments({ kind: 'mail' })).toBe(0);
  });
});

describe('with SMTP_URL', () => {
  let t: TestDatabase;
  let inbox: Inbox;
  let collector: RunningCollector;
  beforeAll(async () => {
    inbox = await startSmtp();
    t = await testDatabase('mail_on');
    await seed(t.c, trackingFixture({ users: [OWNER] }));
    collector = await startCollector(t.db, { delivery: FAST, mail: { smtpUrl: inbox.url, from: 'RingTrail <calls@shop.test>', timeoutMs: 500 }, publicUrl: 'https://calls.shop.test', metricsKey: METRICS_KEY });
  });
  afterAll(async () => {
    await collector?.close();
    await t?.close();
    await inbox?.close();
  });

  it('sends a member the test e-mail they ask for, in plain text and HTML, from MAIL_FROM', async () => {
    const owner = await signedInClient(collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.get('/config')).body).toMatchObject({ mail: true });
    expect(await owner.call('POST', '/mail/test')).toMatchObject({ status: 202, body: { to: OWNER.username } });
    const [mail] = await inbox.received(1);
    expect(mail!.subject).toBe('RingTrail test e-mail');
    expect(mail!.from?.value).toEqual([{ name: 'RingTrail', address: 'calls@shop.test' }]);
    expect(mail!.to).toMatchObject({ text: OWNER.username });
    expect(mail!.text).toContain('https://calls.shop.test/manage/');
    expect(mail!.html).toContain('href="https://calls.shop.test/manage/"');
    expect(mail!.html).not.toMatch(/<script|<img/i);
    expect(mail!.messageId).toMatch(/^<mail_[0-9a-f-]+@ringtrail>$/);
    // Delivered: the outbox holds it no more (once the worker has heard the server's answer), and the log says so.
    await expect.poll(() => t.c.outbox.countDocuments({ kind: 'mail' })).toBe(0);
    expect(await t.c.deliveryLog.findOne({ kind: 'mail' })).toMatchObject({ label: 'test', outcome: 'delivered', error: null });
    // Counted for Prometheus by kind of mail and result.
    const metrics = await (await fetch(`${collector.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_KEY}` } })).text();
    expect(metrics).toContain('ringtrail_mail_sent_total{kind="test",result="delivered"} 1');
  });

  it('tries again when the server answers 4xx, and when it never answers', async () => {
    const owner = await signedInClient(collector.baseUrl, OWNER.username, OWNER.password);
    inbox.refuseNext(2, 451);
    await owner.call('POST', '/mail/test');
    await inbox.received(2);
    const attempts = await t.c.deliveryLog.find({ kind: 'mail', outcome: { $ne: 'delivered' } }).sort({ at: 1 }).toArray();
    expect(attempts.map((a) => [a.outcome, a.error?.slice(0, 8)])).toEqual([
      ['retrying', 'SMTP 451'],
      ['retrying', 'SMTP 451'],
    ]);
    expect(inbox.messages.filter((m) => m.subject === 'RingTrail test e-mail')).toHaveLength(2); // never twice

    // A server that takes the connection and says nothing: each attempt ends at the time limit, and
    // the web requests are not slowed by it.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const t2 = await testDatabase('mail_silent');
    await seed(t2.c, trackingFixture({ users: [OWNER] }));
    const stuck = await startCollector(t2.db, { delivery: FAST, mail: { smtpUrl: `smtp://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, from: 'calls@shop.test', timeoutMs: 300 } });
    try {
      const member = await signedInClient(stuck.baseUrl, OWNER.username, OWNER.password);
      expect((await member.call('POST', '/mail/test')).status).toBe(202);
      await expect.poll(() => t2.c.deliveryLog.countDocuments({ kind: 'mail', outcome: 'retrying' }), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      // The greeting's or the socket's time limit, whichever ends first.
      expect((await t2.c.deliveryLog.findOne({ kind: 'mail' }))!.error).toMatch(/timeout|greeting never received/i);
      expect(await t2.c.outbox.countDocuments({ kind: 'mail' })).toBe(1); // kept, to try again
      // Settings says so: retrying since the first attempt, with the last error (issue 52).
      expect((await member.get('/mail')).body.retrying).toEqual({ since: expect.any(String), waiting: 1, lastError: expect.stringMatching(/timeout|greeting never received/i) });
    } finally {
      await stuck.close();
      await t2.close();
      silent.close();
    }
  });

  it('gives up on a 5xx answer, and shows the failure with the server’s words in Settings', async () => {
    const owner = await signedInClient(collector.baseUrl, OWNER.username, OWNER.password);
    inbox.refuseNext(1, 550);
    await owner.call('POST', '/mail/test');
    await expect.poll(async () => (await owner.get('/mail')).body.failures.length, { timeout: 20_000 }).toBe(1);
    const { body } = await owner.get('/mail');
    expect(body).toMatchObject({ configured: true, from: 'RingTrail <calls@shop.test>' });
    expect(body.failures[0]).toMatchObject({ kind: 'test', to: OWNER.username, subject: 'RingTrail test e-mail', error: expect.stringMatching(/^SMTP 550/) });
    await expect.poll(() => t.c.outbox.countDocuments({ kind: 'mail' })).toBe(0);
  });

  it('mails an invitation to the person invited, and a reset link to whoever asks for their address, the same answer for an unknown one', async () => {
    const owner = await signedInClient(collector.baseUrl, OWNER.username, OWNER.password);
    const before = inbox.messages.length;
    const invited = await owner.call('POST', '/account/members', { username: 'nina@shop.test', role: 'analyst', domains: ['shop.test'] });
    expect(invited).toMatchObject({ status: 201, body: { invitation: { mailed: true } } });
    const [invitation] = (await inbox.received(before + 1)).slice(before);
    expect(invitation!.subject).toBe('You are invited to Test account on RingTrail');
    expect(invitation!.to).toMatchObject({ text: 'nina@shop.test' });
    expect(invitation!.text).toContain(invited.body.invitation.url);
    // The link of the mail works: Nina chooses her password and is signed in.
    const token = new URL(invited.body.invitation.url).hash.split('token=')[1];
    const accept = await fetch(`${collector.baseUrl}/manage/api/invitations/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, password: 'nina chose her own' }) });
    expect(accept.status).toBe(200);

    const ask = (username: string) => fetch(`${collector.baseUrl}/manage/api/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username }) });
    const known = await (await ask('nina@shop.test')).json();
    const unknown = await (await ask('nobody@shop.test')).json();
    expect(known).toEqual({ mailSent: true, message: 'If nina@shop.test has a login here, a link to choose a new password is on its way. It works once, for an hour.' });
    expect(unknown).toEqual({ mailSent: true, message: known.message.replace('nina@shop.test', 'nobody@shop.test') });
    const [reset] = (await inbox.received(before + 2)).slice(before + 1);
    expect(reset!.subject).toBe('Choose a new RingTrail password');
    expect(reset!.to).toMatchObject({ text: 'nina@shop.test' });
    expect(reset!.text).toMatch(/\/manage\/#\/accept\?token=[\w-]{43}/);
    expect(reset!.text).toContain('The link works once, for an hour.');
    expect(invitation!.text).toContain('The link works once, for 7 days.');
    // Nobody can fill a mailbox with links: three an address per quarter of an hour.
    expect((await ask('nina@shop.test')).status).toBe(200);
    expect((await ask('nina@shop.test')).status).toBe(200);
    expect((await ask('nina@shop.test')).status).toBe(429);
    expect(inbox.messages.slice(before).filter((m) => m.to && 'text' in m.to && m.to.text === 'nobody@shop.test')).toEqual([]);
  });
});
