// The warnings that tracking is broken (issue 40), read from a real SMTP server on loopback: each
// mailed once when it starts and once when it ends, never each minute in between, to the domain's
// owners and admins (not an analyst, unless they turn them on).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { WarningWatch } from '../../collector/src/alerts/warning-watch.ts';
import { dayKey } from '../../collector/src/data/call-days.ts';
import { addDays, localTime } from '../../collector/src/domains/time-zone.ts';
import { Outbox } from '../../collector/src/webhooks/outbox.ts';
import type { OutboxDoc } from '../../collector/src/webhooks/documents.ts';
import { Mailing } from '../../collector/src/alerts/mailing.ts';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { startSmtp, type Inbox } from '../helpers/smtp.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'warnings owner password', alerts: { 'shop.test': { missedCall: 'off' } } };
const ADMIN = { username: 'admin@shop.test', password: 'warnings admin password', role: 'admin', alerts: { 'shop.test': { warnings: false } } };
const ANALYST = { username: 'analyst@shop.test', password: 'warnings analyst password', role: 'analyst', domains: ['shop.test'] };
const HOUR = 3_600_000;

let t: TestDatabase;
let inbox: Inbox;
let collector: RunningCollector;
let watch: WarningWatch;
beforeAll(async () => {
  inbox = await startSmtp();
  t = await testDatabase('mail_warnings');
  // One tracking number: the second visitor at once finds the pool exhausted.
  await seed(t.c, trackingFixture({ users: [OWNER, ADMIN, ANALYST], exclusive: ['0800000001'] }));
  collector = await startCollector(t.db, { telephonyApiKey: TELEPHONY_KEY, delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 400, publicOnly: false }, mail: { smtpUrl: inbox.url, from: 'RingTrail <calls@shop.test>' }, publicUrl: 'https://calls.shop.test' });
  watch = new WarningWatch(new Mailing(t.c, new Outbox(t.c), 'https://calls.shop.test'));
});
afterAll(async () => {
  await collector?.close();
  await t?.close();
  await inbox?.close();
});

/** The mails that arrive after `before` of them, once there are `count`. */
async function next(before: number, count: number): Promise<ParsedMail[]> {
  return (await inbox.received(before + count)).slice(before);
}


/** An outbox message of the test account first tried at `since` and retried an hour from now. */
function failingSince(since: Date, message: Pick<OutboxDoc, '_id' | 'stream' | 'kind' | 'label' | 'url' | 'body' | 'attempts'>): OutboxDoc {
  return { accountId: 'Test account', contentType: 'application/json', signed: false, createdAt: since, enqueuedAt: since.getTime(), firstAttemptAt: since, nextAttemptAt: new Date(Date.now() + HOUR), claimedBy: null, claimedUntil: new Date(0), ...message };
}

describe('warnings', () => {
  it('says once that the tag stopped after views every day, and once that views came back', async () => {
    // A week of views every day, the last 30 hours ago.
    const now = new Date();
    const lastView = new Date(now.getTime() - 30 * HOUR);
    const lastDay = localTime(lastView, 'UTC').day;
    for (let i = 0; i < 7; i++) {
      const day = addDays(lastDay, -i);
      await t.c.trafficDays.updateOne({ _id: dayKey('shop.test', day) }, { $set: { domainId: 'shop.test', day, views: 40, lastViewAt: i === 0 ? lastView : new Date(`${day}T18:00:00Z`) } }, { upsert: true });
    }
    const before = inbox.messages.length;
    await watch.tick(now);
    await watch.tick(new Date(now.getTime() + 60_000)); // a minute later: going on, not said again
    const [started] = await next(before, 1);
    expect(started!.subject).toBe('RingTrail: no views from shop.test for 24 hours');
    expect(started!.to).toMatchObject({ text: OWNER.username }); // not the admin who turned them off, not the analyst
    expect(started!.text).toContain('https://calls.shop.test/manage/#/shop.test/settings');
    expect(started!.headerLines.some((h) => h.key === 'list-unsubscribe')).toBe(true);

    // A visitor comes; the report writes the counters the collector sums in memory.
    await collector.post('/ospView', viewParams({ url: 'https://shop.test/', direct_display: false }));
    await (await signedInClient(collector.baseUrl, OWNER.username, OWNER.password)).get('/domains/shop.test/reports/overview');
    await watch.tick(new Date());
    const [ended] = await next(before + 1, 1);
    expect(ended!.subject).toBe('RingTrail: views from shop.test again');
    expect(inbox.messages.length).toBe(before + 2);
  });

  it('says pages of an address not allowed send views, to whoever turned warnings on', async () => {
    const analyst = await signedInClient(collector.baseUrl, ANALYST.username, ANALYST.password);
    await analyst.call('PUT', '/domains/shop.test/alerts', { warnings: true });
    const before = inbox.messages.length;
    const res = await fetch(`${collector.baseUrl}/t/view`, { method: 'POST', headers: { origin: 'https://copy.example', 'content-type': 'text/plain;charset=UTF-8' }, body: new URLSearchParams({ key: 'pk-test-key', visit_id: '0', url: 'https://copy.example/', page_title: 'Copy', referer_url: '', phones: '0123456789' }).toString() });
    expect(res.status).toBe(403);
    await watch.tick(new Date());
    const started = await next(before, 2);
    expect(started.map((m) => [m.subject, m.to && 'text' in m.to ? m.to.text : null]).sort()).toEqual([
      ['RingTrail: views refused from an address not allowed on shop.test', ANALYST.username],
      ['RingTrail: views refused from an address not allowed on shop.test', OWNER.username],
    ]);
    expect(started[0]!.text).toContain('https://copy.example: 1 views refused');
    await analyst.call('PUT', '/domains/shop.test/alerts', { warnings: false }); // the owner alone from here
  });

  it('says the carrier stopped reporting calls, and that it reports again', async () => {
    const before = inbox.messages.length;
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    expect((await reportCall(collector.baseUrl, { callRef: 'never-ended', trackingNumber: '0100000001', startDate: twoHoursAgo, status: undefined })).status).toBe(200);
    await watch.tick(new Date());
    const [started] = await next(before, 1);
    expect(started!.subject).toBe('RingTrail: no call outcome from the carrier for shop.test');
    expect(started!.text).toContain('Calls without an outcome: 1');
    await reportCall(collector.baseUrl, { callRef: 'never-ended', trackingNumber: '0100000001', startDate: twoHoursAgo, status: 'NORESPONSE', duration: 0 });
    await watch.tick(new Date());
    const [ended] = await next(before + 1, 1);
    expect(ended!.subject).toBe("RingTrail: the carrier reports shop.test's calls again");
  });

  it("says the account's webhook has failed for over an hour, and that it works again", async () => {
    const before = inbox.messages.length;
    const longAgo = new Date(Date.now() - 2 * HOUR);
    // A push its receiver has refused since two hours ago, retried later.
    await t.c.outbox.insertOne(failingSince(longAgo, { _id: 'msg_failing', stream: 'call:1', kind: 'webhook', label: 'call', url: 'https://hooks.shop.test/', body: '{}', attempts: 9 }));
    await watch.tick(new Date());
    const [started] = await next(before, 1);
    expect(started!.subject).toBe('RingTrail: the webhook of Test account has failed for over an hour');
    expect(started!.text).toContain('Attempts: 9');
    await t.c.outbox.deleteOne({ _id: 'msg_failing' });
    await watch.tick(new Date());
    const [ended] = await next(before + 1, 1);
    expect(ended!.subject).toBe('RingTrail: the webhook of Test account works again');
  });

  it('says once that transcription is failing after a few attempts in a row, with what the engine said, and that it works again', async () => {
    const before = inbox.messages.length;
    const longAgo = new Date(Date.now() - 2 * HOUR);
    // A call's transcript the engine has refused since two hours ago, retried later.
    await t.c.outbox.insertOne(failingSince(longAgo, { _id: 'transcript_77', stream: 'transcript:77', kind: 'transcript', label: 'transcript', url: 'transcribe:engine', body: '{"callId":77}', attempts: 12 }));
    await t.c.deliveryLog.insertOne({ _id: 'transcript_77#12', messageId: 'transcript_77', accountId: 'Test account', stream: 'transcript:77', kind: 'transcript', label: 'transcript', attempt: 12, at: new Date(), httpStatus: 503, error: 'the engine answered 503: overloaded', outcome: 'retrying', body: '{"callId":77}' });
    await watch.tick(new Date());
    await watch.tick(new Date(Date.now() + 60_000)); // going on: not said again
    const [started] = await next(before, 1);
    expect(started!.subject).toBe('RingTrail: transcription failing for Test account');
    expect(started!.text).toContain('Calls waiting for a transcript: 1');
    expect(started!.text).toContain('The engine last said: the engine answered 503: overloaded');
    await t.c.outbox.deleteOne({ _id: 'transcript_77' });
    await watch.tick(new Date());
    const [ended] = await next(before + 1, 1);
    expect(ended!.subject).toBe('RingTrail: transcription works again for Test account');
    expect(inbox.messages.length).toBe(before + 2);
  });

  it('says once that call analysis is failing, with what the model said, and that it works again (issue 66)', async () => {
    const before = inbox.messages.length;
    await t.c.outbox.insertOne({ ...failingSince(new Date(Date.now() - HOUR), { _id: 'analysis_91', stream: 'analysis:91', kind: 'analysis', label: 'analysis', url: 'analyze:model', body: '{"callId":91}', attempts: 4 }), lastError: "the model answered 503: model 'qwen2.5:7b' is loading" });
    await watch.tick(new Date());
    await watch.tick(new Date(Date.now() + 60_000)); // going on: not said again
    const [started] = await next(before, 1);
    expect(started!.subject).toBe('RingTrail: call analysis failing for Test account');
    expect(started!.text).toContain('Calls waiting for their analysis: 1');
    expect(started!.text).toContain("The model last said: the model answered 503: model 'qwen2.5:7b' is loading");
    await t.c.outbox.deleteOne({ _id: 'analysis_91' });
    await watch.tick(new Date());
    expect((await next(before + 1, 1))[0]!.subject).toBe('RingTrail: call analysis works again for Test account');
    expect(inbox.messages.length).toBe(before + 2);
  });

  it('says transcription is failing a minute after it starts, at the third failed attempt in a row, not an hour or a day later', async () => {
    const before = inbox.messages.length;
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await t.c.outbox.insertOne({ ...failingSince(aMinuteAgo, { _id: 'transcript_78', stream: 'transcript:78', kind: 'transcript', label: 'transcript', url: 'transcribe:engine', body: '{"callId":78}', attempts: 2 }), lastError: 'the engine answered 500: boom' });
    await watch.tick(new Date());
    expect(await t.c.warningStates.countDocuments({ warning: 'transcription-failing', endedAt: null })).toBe(0);
    await t.c.outbox.updateOne({ _id: 'transcript_78' }, { $set: { attempts: 3, lastError: 'the engine answered 500: still broken' } });
    await watch.tick(new Date());
    const [started] = await next(before, 1);
    expect(started!.subject).toBe('RingTrail: transcription failing for Test account');
    expect(started!.text).toContain('Attempts failed in a row: 3');
    expect(started!.text).toContain('The engine last said: the engine answered 500: still broken');
    await t.c.outbox.deleteOne({ _id: 'transcript_78' });
    await watch.tick(new Date());
    expect((await next(before + 1, 1))[0]!.subject).toBe('RingTrail: transcription works again for Test account');
  });

  it('says once that an ad platform refuses the domain\'s credentials, and that it takes them again', async () => {
    const before = inbox.messages.length;
    const brokenAt = new Date(Date.now() - 5 * 60_000);
    // What the ads sender writes when Google answers 401 at a send (ads/ads-sender.ts, tested in test/ads/google.test.ts).
    await t.c.adsConnections.insertOne({ _id: 'shop.test|google', domainId: 'shop.test', accountId: 'Test account', platform: 'google', settings: { operatingAccountId: '1234567890', conversionActionId: '987654321' }, secret: 'sealed', credentials: 'service account x@y.iam.gserviceaccount.com', connectedAt: brokenAt, by: OWNER.username, broken: { at: brokenAt, error: 'HTTP 401: Request had invalid authentication credentials.' } });
    await watch.tick(new Date());
    await watch.tick(new Date(Date.now() + 60_000)); // going on: not said again
    const [started] = await next(before, 1);
    expect(started!.subject).toBe("RingTrail: an ad platform refuses shop.test's conversions");
    expect(started!.text).toContain('Google Ads: refuses the credentials since');
    expect(started!.text).toContain('HTTP 401: Request had invalid authentication credentials.');
    expect(started!.text).toContain('https://calls.shop.test/manage/#/shop.test/conversions');
    await t.c.adsConnections.updateOne({ _id: 'shop.test|google' }, { $set: { broken: null } });
    await watch.tick(new Date());
    const [ended] = await next(before + 1, 1);
    expect(ended!.subject).toBe("RingTrail: shop.test's ad platforms take its conversions again");
    expect(inbox.messages.length).toBe(before + 2);
  });

  // Last: it ends three hours later, a time the others would not be asked at.
  it("says once that the CRM refuses the domain's credentials, and that it takes them again (issue 67)", async () => {
    const before = inbox.messages.length;
    const brokenAt = new Date(Date.now() - 5 * 60_000);
    // What a delivery writes when HubSpot answers 401 (crm/crm-sync.ts, tested in test/crm/hubspot.test.ts).
    await t.c.crmConnections.insertOne({ _id: 'shop.test|hubspot', domainId: 'shop.test', accountId: 'Test account', crm: 'hubspot', account: { name: 'HubSpot portal 12345678', links: {} }, send: { calls: true, forms: true, onlyLeads: false, onlyFirstCallers: false }, defaultOwner: null, secret: 'sealed', credentials: 'private app token …5555', connectedAt: brokenAt, by: OWNER.username, broken: { at: brokenAt, error: 'HubSpot refuses the token (401): The OAuth token used to make this call expired' } });
    await watch.tick(new Date());
    await watch.tick(new Date(Date.now() + 60_000)); // going on: not said again
    const [started] = await next(before, 1);
    expect(started!.subject).toBe("RingTrail: the CRM refuses shop.test's calls and forms");
    expect(started!.text).toContain('HubSpot: refuses the credentials since');
    expect(started!.text).toContain('The OAuth token used to make this call expired');
    expect(started!.text).toContain('https://calls.shop.test/manage/#/shop.test/settings');
    await t.c.crmConnections.updateOne({ _id: 'shop.test|hubspot' }, { $set: { broken: null } });
    await watch.tick(new Date());
    const [ended] = await next(before + 1, 1);
    expect(ended!.subject).toBe("RingTrail: shop.test's CRM takes its calls and forms again");
    expect(inbox.messages.length).toBe(before + 2);
  });

  it('says the pool ran out, with its numbers and the size recommended, and that it ended', async () => {
    const before = inbox.messages.length;
    await collector.post('/ospView', viewParams({ ip: '198.51.100.1' }));
    const refused = await collector.post('/ospView', viewParams({ ip: '198.51.100.2' }));
    expect(refused.body.status).toBe('WARNING');
    await watch.tick(new Date());
    await watch.tick(new Date());
    const [started] = await next(before, 1);
    expect(started!.subject).toBe("RingTrail: shop.test's tracking numbers ran out");
    expect(started!.text).toMatch(/Pool 1: 1 visitor shown the site's own number in the last two hours; 1 numbers, \d+ recommended/);
    await watch.tick(new Date(Date.now() + 3 * HOUR)); // two hours without a refusal
    const [ended] = await next(before + 1, 1);
    expect(ended!.subject).toBe("RingTrail: shop.test's tracking numbers are enough again");
  });
});
