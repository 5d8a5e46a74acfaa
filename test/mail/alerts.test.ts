// Alerts about calls by e-mail (issue 40), read from a real SMTP server on loopback: a missed call
// mailed once with its source and link, a burst gathered, an hourly digest, the one-click
// unsubscribe (RFC 8058) turning off one choice, a removed member and a dead process's mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { AlertMailer } from '../../collector/src/alerts/alert-mailer.ts';
import { createLogger } from '../../collector/src/logger.ts';
import { Outbox } from '../../collector/src/webhooks/outbox.ts';
import { Mailing } from '../../collector/src/alerts/mailing.ts';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { startSmtp, type Inbox } from '../helpers/smtp.ts';
import { alertingOptions } from '../helpers/mailed-collector.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'alerts owner password' };
const ANALYST = { username: 'analyst@shop.test', password: 'alerts analyst password', role: 'analyst', domains: ['shop.test'] };
const PUBLIC_URL = 'https://calls.shop.test';

let t: TestDatabase;
let inbox: Inbox;
let collector: RunningCollector;
let owner: ManageClient;
beforeAll(async () => {
  inbox = await startSmtp();
  t = await testDatabase('mail_alerts');
  await seed(t.c, trackingFixture({ users: [OWNER, ANALYST], exclusive: ['0800000001', '0800000002', '0800000003', '0800000004', '0800000005', '0800000006', '0800000007', '0800000008'] }));
  collector = await startCollector(t.db, { ...alertingOptions(PUBLIC_URL), mail: { smtpUrl: inbox.url, from: 'RingTrail <calls@shop.test>', timeoutMs: 2000 } });
  owner = await signedInClient(collector.baseUrl, OWNER.username, OWNER.password);
});
afterAll(async () => {
  await collector?.close();
  await t?.close();
  await inbox?.close();
});

let ref = 0;
/** A visitor from a Google search for "boiler repair" calls the number they were shown. */
async function callFromSearch(status: string, caller = '0611223344') {
  const view = await collector.post('/ospView', viewParams({ url: 'https://shop.test/', referer_url: 'https://www.google.com/search?q=boiler+repair', ip: `198.51.100.${++ref}` }));
  const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
  const { body } = await reportCall(collector.baseUrl, { callRef: `alert-${ref}`, trackingNumber: number, startDate: new Date(), status, duration: status === 'SUCCESS' ? 120 : 0, callerPhone: caller });
  return body.callId as number;
}

/** A header as the mail carried it (mailparser reads List-* headers into its own shape). */
const header = (mail: ParsedMail, name: string) => mail.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]+:\s*/, '');

const callsIn = (mail: ParsedMail) => (mail.text ?? '').split('\n').filter((line) => line.startsWith('The call: ')).length;

describe('call alerts', () => {
  it('mails the owner a missed call once, with the caller, where they came from and a link to the call; nobody else by default', async () => {
    await callFromSearch('SUCCESS'); // answered: nothing to say
    const callId = await callFromSearch('NORESPONSE');
    const [mail] = await inbox.received(1);
    expect(mail!.subject).toBe('Missed call from 06 11 22 33 44 (shop.test)');
    expect(mail!.to).toMatchObject({ text: OWNER.username });
    expect(mail!.text).toContain('Came from: a Google search, keyword boiler repair');
    expect(mail!.text).toContain('Outcome: No answer');
    expect(mail!.text).toContain(`The call: ${PUBLIC_URL}/manage/#/shop.test/call?id=${callId}`);
    expect(mail!.html).toContain(`href="${PUBLIC_URL}/manage/#/shop.test/call?id=${callId}"`);
    expect(mail!.html).not.toMatch(/<script|<img/i);
    expect(header(mail!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(header(mail!, 'list-unsubscribe')).toMatch(new RegExp(`^<${PUBLIC_URL}/mail/unsubscribe/[A-Za-z0-9_-]{43}>$`));
    // Its later reports raise nothing again.
    await reportCall(collector.baseUrl, { callRef: `alert-${ref}`, trackingNumber: (await t.c.calls.findOne({ _id: callId }))!.trackingNumber, startDate: new Date(), status: 'NORESPONSE', duration: 0 });
    expect(await t.c.pendingAlerts.countDocuments()).toBe(0);
  });

  it('gathers a burst of missed calls into one mail a minute, never one per call', async () => {
    const before = inbox.messages.length;
    // Thirty callers ring the number one visitor holds, at once, and nobody picks up.
    const view = await collector.post('/ospView', viewParams({ url: 'https://shop.test/', ip: '198.51.100.200' }));
    const held = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    const started = Date.now();
    await Promise.all(Array.from({ length: 30 }, (_, i) => reportCall(collector.baseUrl, { callRef: `burst-${i}`, trackingNumber: held, startDate: new Date(), status: 'BUSY', duration: 0, callerPhone: `06000000${String(i).padStart(2, '0')}` })));
    // Every call of the burst told, in as few mails as the gathering allows.
    await expect.poll(() => inbox.messages.slice(before).reduce((n, mail) => n + callsIn(mail), 0), { timeout: 20_000 }).toBe(30);
    const burst = inbox.messages.slice(before);
    // One mail, then one per gathering window the burst itself lasted (a busy machine spreads its
    // thirty requests over more than one window): never one per call.
    const windows = Math.ceil((Date.now() - started) / 1500);
    expect(burst.length).toBeLessThanOrEqual(Math.min(1 + windows, 5));
    expect(burst.some((mail) => /^Missed calls: \d+ \(shop\.test\)$/.test(mail.subject ?? ''))).toBe(true);
    expect(burst.every((mail) => mail.to && 'text' in mail.to && mail.to.text === OWNER.username)).toBe(true);
  });

  it('turns off one choice with the mail’s one-click link, once; a forged link says it does not work', async () => {
    const link = header(inbox.messages[0]!, 'list-unsubscribe')!.slice(1, -1).replace(PUBLIC_URL, collector.baseUrl);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Stop sending missed-call alerts for shop.test to owner@shop.test?');
    // Visiting the link changed nothing; the mail client's one-click POST does.
    expect((await owner.get('/alerts')).body.domains[0].choices.missedCall).toBe('immediate');
    const oneClick = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain('owner@shop.test will no longer receive missed-call alerts for shop.test');
    expect((await owner.get('/alerts')).body).toEqual({ mail: true, domains: [{ domain: 'shop.test', choices: { missedCall: 'off', newLead: 'off', firstCaller: 'off', spamBlocked: 'off', missedOutsideHours: false, warnings: true, weekly: false, monthly: false } }] });
    const again = await fetch(link, { method: 'POST' });
    expect([again.status, await again.text()]).toEqual([200, expect.stringContaining('Already unsubscribed')]);
    const forged = await fetch(`${collector.baseUrl}/mail/unsubscribe/${'A'.repeat(43)}`, { method: 'POST' });
    expect([forged.status, await forged.text()]).toEqual([404, expect.stringContaining('This link does not work')]);
    // An old link (over 90 days) says it does not work, even before the database's TTL removes it.
    await t.c.unsubscribeTokens.updateMany({}, { $set: { createdAt: new Date(Date.now() - 91 * 86_400_000), usedAt: null } });
    const old = await fetch(link);
    expect([old.status, await old.text()]).toEqual([404, expect.stringContaining('older than 90 days')]);
    // The next missed call raises nothing for the owner.
    await callFromSearch('BUSY');
    expect(await t.c.pendingAlerts.countDocuments({ username: OWNER.username })).toBe(0);
  });

  it('sends an hourly digest at the hour, and nothing to a member removed meanwhile', async () => {
    expect((await owner.call('PUT', '/domains/shop.test/alerts', { newLead: 'hourly' })).body.choices.newLead).toBe('hourly');
    const analyst = await signedInClient(collector.baseUrl, ANALYST.username, ANALYST.password);
    expect((await analyst.call('PUT', '/domains/shop.test/alerts', { newLead: 'immediate' })).status).toBe(200);
    expect((await owner.call('PUT', '/domains/shop.test/alerts', { newLead: 'sometimes' })).body).toEqual({ error: 'newLead: must be one of immediate, hourly, off' });
    // The analyst leaves the account before the lead comes.
    expect((await owner.call('DELETE', `/account/members/${ANALYST.username}`)).status).toBe(204);
    const lead = await callFromSearch('SUCCESS', '0622334455');
    const pending = await t.c.pendingAlerts.find().toArray();
    expect(pending.map((p) => [p.username, p.alert, p.delivery])).toEqual([[OWNER.username, 'newLead', 'hourly']]);
    const hour = pending[0]!.dueAt;
    expect(hour.getTime() % 3_600_000).toBe(0);
    // The hour comes (the alert made due now, as the clock would), and the digest goes.
    const before = inbox.messages.length;
    await t.c.pendingAlerts.updateMany({}, { $set: { dueAt: new Date() } });
    const [digest] = (await inbox.received(before + 1)).slice(before);
    expect(digest!.subject).toBe('New lead: 06 22 33 44 55 (shop.test)');
    expect(digest!.text).toContain(`call?id=${lead}`);
    expect(await t.c.pendingAlerts.countDocuments()).toBe(0);
  });

  it('queues a mail a dead process took but never queued, once, under the id it took', async () => {
    const callId = (await t.c.calls.findOne({}, { sort: { _id: -1 } }))!._id;
    const long = new Date(Date.now() - 5 * 60_000);
    await t.c.pendingAlerts.insertOne({ _id: `${callId}|newLead|${OWNER.username}`, username: OWNER.username, accountId: 'Test account', domainId: 'shop.test', alert: 'newLead', callId, at: long, delivery: 'hourly', dueAt: long, batch: 'mail_taken-by-a-dead-process', batchedAt: long });
    const mailer = new AlertMailer(new Mailing(t.c, new Outbox(t.c), PUBLIC_URL), createLogger('silent'));
    await mailer.tick();
    await mailer.tick();
    await expect.poll(() => inbox.messages.filter((m) => m.messageId === '<mail_taken-by-a-dead-process@ringtrail>').length, { timeout: 20_000 }).toBe(1);
    expect(await t.c.pendingAlerts.countDocuments()).toBe(0);
  });
});
