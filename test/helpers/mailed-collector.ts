// The hooks of a test file whose collector sends mail: a real SMTP server on loopback, a database
// of the file's own seeded with `fixture`, and a collector mailing through that server.
import { afterAll, beforeAll } from 'vitest';
import type { AppOptions } from '../../collector/src/app.ts';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from './collector.ts';
import { startSmtp, type Inbox } from './smtp.ts';
import { TELEPHONY_KEY } from './telephony.ts';

export interface MailedCollector {
  t: TestDatabase;
  inbox: Inbox;
  collector: RunningCollector;
}

/** A collector's options for tests of alerts, but its mail: signed carrier reports, quick retries,
 * due alerts looked for every 50 ms and a burst gathered over 1.5 s (a minute in production). */
export function alertingOptions(publicUrl: string): Omit<AppOptions, 'db' | 'log' | 'mail'> {
  return { telephonyApiKey: TELEPHONY_KEY, delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 400, publicOnly: false }, publicUrl, alertTimings: { everyMs: 50, gatherMs: 1500 } };
}

/** `opts`: the collector's options but its mail, which goes to the inbox from `from`. */
export function useMailedCollector(label: string, fixture: unknown, opts: Omit<AppOptions, 'db' | 'log' | 'mail'> = {}, from = 'RingTrail <calls@shop.test>'): MailedCollector {
  const m = {} as MailedCollector;
  beforeAll(async () => {
    m.inbox = await startSmtp();
    m.t = await testDatabase(label);
    await seed(m.t.c, fixture);
    m.collector = await startCollector(m.t.db, { ...opts, mail: { smtpUrl: m.inbox.url, from } });
  });
  afterAll(async () => {
    await m.collector?.close();
    await m.t?.close();
    await m.inbox?.close();
  });
  return m;
}
