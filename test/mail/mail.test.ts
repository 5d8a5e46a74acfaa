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
    collector = await startCollector(t.db, { delivery: FAST, mail: { smtpUrl: inbox.url, from: 'RingTrail <calls@shop.test>', timeoutMs: 500 }, publicUrl: 'https://calls.shop.test' });
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
      expect((await member.get('/mail')).status).toBe(200);
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
});
