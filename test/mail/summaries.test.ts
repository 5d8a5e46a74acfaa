// The weekly and monthly summaries (issue 40): the overview's figures for the period against the one
// before, as the reports give them; sent on schedule once to those who chose it, and on demand by
// `npm run send-summaries` beside a running collector; read from a real SMTP server on loopback.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { summaryRange } from '../../collector/src/alerts/summaries.ts';
import { SummarySender } from '../../collector/src/alerts/summary-sender.ts';
import { addDays, localInstant, localTime } from '../../collector/src/domains/time-zone.ts';
import { Outbox } from '../../collector/src/webhooks/outbox.ts';
import { Mailing } from '../../collector/src/alerts/mailing.ts';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { startSmtp, type Inbox } from '../helpers/smtp.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

// The owner hears of no missed call here: the summaries are the only mails.
const OWNER = { username: 'owner@shop.test', password: 'summary owner password', alerts: { 'shop.test': { missedCall: 'off' } } };
const ANALYST = { username: 'analyst@shop.test', password: 'summary analyst password', role: 'analyst', domains: ['shop.test'] };
const ZONE = 'Europe/Paris';
const PUBLIC_URL = 'https://calls.shop.test';

/** Next Monday at `time` in the domain's zone: the week it ends is the one holding today. */
function nextMonday(time: string): Date {
  const today = localTime(new Date(), ZONE).day;
  const weekDay = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  return localInstant(addDays(today, 7 - weekDay), time, ZONE);
}

describe('summaries', () => {
  let t: TestDatabase;
  let inbox: Inbox;
  let collector: RunningCollector;
  beforeAll(async () => {
    inbox = await startSmtp();
    t = await testDatabase('mail_summaries');
    await seed(t.c, trackingFixture({ users: [OWNER, ANALYST], timeZone: ZONE, exclusive: ['0800000001', '0800000002', '0800000003', '0800000004'] }));
    collector = await startCollector(t.db, { telephonyApiKey: TELEPHONY_KEY, delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 400, publicOnly: false }, mail: { smtpUrl: inbox.url, from: 'RingTrail <calls@shop.test>' }, publicUrl: PUBLIC_URL });
    // This week: three visits from a search, two calls (one answered, a lead; one missed).
    for (const [i, status] of [[1, 'SUCCESS'], [2, 'NORESPONSE'], [3, null]] as const) {
      const view = await collector.post('/ospView', viewParams({ url: 'https://shop.test/', referer_url: 'https://www.google.com/search?q=boiler+repair', ip: `198.51.100.${i}` }));
      if (!status) continue;
      const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
      await reportCall(collector.baseUrl, { callRef: `summary-${i}`, trackingNumber: number, startDate: new Date(), status, duration: status === 'SUCCESS' ? 120 : 0, callerPhone: `061122334${i}` });
    }
  });
  afterAll(async () => {
    await collector?.close();
    await t?.close();
    await inbox?.close();
  });

  it('takes the last full week, Monday to Sunday, and the last full month, in the domain’s days', () => {
    const wednesday = new Date('2026-11-25T10:00:00Z');
    expect(summaryRange('week', wednesday, ZONE)).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(summaryRange('week', new Date('2026-11-23T08:00:00Z'), ZONE)).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(summaryRange('month', wednesday, ZONE)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(summaryRange('month', new Date('2026-03-01T08:00:00Z'), ZONE)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
  });

  it('says the overview’s figures of the week against the week before, and sends on Monday once, to those who chose it', async () => {
    const owner = await signedInClient(collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PUT', '/domains/shop.test/alerts', { weekly: true })).body.choices.weekly).toBe(true);
    // The report first: reading it writes the views' counters the collector still sums in memory
    // (a summary, sent at 07:00 of the Monday after, never waits on that last second).
    const { from, to } = summaryRange('week', nextMonday('07:30:00'), ZONE);
    const report = (await owner.get(`/domains/shop.test/reports/overview?from=${from}&to=${to}`)).body;
    const sender = new SummarySender(new Mailing(t.c, new Outbox(t.c), PUBLIC_URL));
    // Before 07:00 on Monday, nothing yet; from 07:00, once, whatever the number of rounds.
    await sender.tick(nextMonday('06:30:00'));
    await sender.tick(nextMonday('07:30:00'));
    await sender.tick(nextMonday('09:00:00'));
    const [mail] = await inbox.received(1);
    expect(mail!.to).toMatchObject({ text: OWNER.username }); // the analyst did not choose it
    expect(report.totals).toMatchObject({ visits: 3, calls: 2, leads: 1 });
    expect(mail!.subject).toMatch(new RegExp(`^Weekly summary of shop\\.test: 2 calls, 1 leads \\(`));
    const lines = mail!.text!.split('\n');
    for (const [label, figure, before] of [['Visits', report.totals.visits, report.previous.totals.visits], ['Calls', report.totals.calls, report.previous.totals.calls], ['New callers', report.totals.newCallers, report.previous.totals.newCallers], ['Leads', report.totals.leads, report.previous.totals.leads]]) {
      expect([label, lines]).toEqual([label, expect.arrayContaining([`${label}: ${figure} (${before} before, new)`])]);
    }
    expect(lines).toContain('Missed calls: 1 (0 before, new)');
    expect(lines).toContain('  Organic search: 1 leads, 2 calls');
    expect(lines).toContain('  boiler repair: 1 leads, 2 calls');
    expect(mail!.text).toContain(`The overview: ${PUBLIC_URL}/manage/#/shop.test/overview?from=${from}&to=${to}`);
    // The chart: one bar per day of the week.
    expect(String(mail!.html).match(/<td title="/g)).toHaveLength(7);
    expect(mail!.html).not.toMatch(/<script|<img/i);
    expect(mail!.headerLines.some((h) => h.key === 'list-unsubscribe-post')).toBe(true);
    expect(await t.c.summaryRuns.countDocuments()).toBe(1);
  });

  it('is sent now by npm run send-summaries, to the owners and those who chose it, beside the running collector', async () => {
    const before = inbox.messages.length;
    const env: NodeJS.ProcessEnv = { ...process.env, MONGODB_URI: inject('mongodbUri'), MONGODB_DB: t.db.databaseName, SMTP_URL: inbox.url, MAIL_FROM: 'RingTrail <calls@shop.test>', PUBLIC_URL, LOG_LEVEL: 'warn' };
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'collector/src/cli/send-summaries.ts', '--domain', 'shop.test', '--period', 'month'], { env });
    expect(stdout.trim()).toBe('shop.test: the monthly summary sent to owner@shop.test');
    const [mail] = (await inbox.received(before + 1)).slice(before);
    expect(mail!.subject).toMatch(/^Monthly summary of shop\.test: /);
    await expect(promisify(execFile)(process.execPath, ['--import', 'tsx', 'collector/src/cli/send-summaries.ts', '--domain', 'shop.test', '--period', 'year'], { env })).rejects.toMatchObject({ stderr: expect.stringContaining('Usage: npm run send-summaries -- --domain NAME --period week|month') });
  });
});
