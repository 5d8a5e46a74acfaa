// A mail is sent once across a collector restart (issue 40): an alert raised by one collector, whose
// mail the SMTP server keeps refusing with 4xx, is sent by the next collector on the same database
// once the server takes it, and then nothing is left anywhere to send it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startCollector, testDatabase, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { startSmtp, type Inbox } from '../helpers/smtp.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'restart owner password' };

let t: TestDatabase;
let inbox: Inbox;
beforeAll(async () => {
  inbox = await startSmtp();
  t = await testDatabase('mail_restart');
  await seed(t.c, trackingFixture({ users: [OWNER] }));
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

const options = () => ({ telephonyApiKey: TELEPHONY_KEY, delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false }, mail: { smtpUrl: inbox.url, from: 'RingTrail <calls@shop.test>' }, alertTimings: { everyMs: 50 } });

describe('a restart', () => {
  it('sends the mail the stopped collector could not, once', async () => {
    inbox.refuseNext(1000, 451);
    const first = await startCollector(t.db, options());
    const view = await first.post('/ospView', viewParams());
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    await reportCall(first.baseUrl, { callRef: 'restart-1', trackingNumber: number, startDate: new Date(), status: 'NORESPONSE', duration: 0 });
    // Not taken yet: the alert became a mail in the outbox, tried and refused.
    await expect.poll(() => t.c.deliveryLog.countDocuments({ kind: 'mail', outcome: 'retrying' }), { timeout: 20_000 }).toBeGreaterThan(0);
    await first.close();
    expect(inbox.messages).toHaveLength(0);

    inbox.refuseNext(0, 451);
    const second = await startCollector(t.db, options());
    try {
      const [mail] = await inbox.received(1);
      expect(mail!.subject).toMatch(/^Missed call from /);
      // Delivered, and nothing is left that could send it again: no alert waiting, no mail queued.
      await expect.poll(() => t.c.outbox.countDocuments({ kind: 'mail' }), { timeout: 20_000 }).toBe(0);
      expect(await t.c.pendingAlerts.countDocuments()).toBe(0);
      expect(await t.c.deliveryLog.countDocuments({ kind: 'mail', outcome: 'delivered' })).toBe(1);
      expect(inbox.messages).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
