// Sends the weekly and monthly summaries: on schedule (each Monday, and on the 1st, from 07:00 in
// the domain's time zone) to the people who chose them, claimed once per domain and period whatever
// the number of processes; and on demand (`npm run send-summaries`) to the domain's owners and the
// people who chose it.
import { isDuplicateKey } from '../db/writes.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { localTime } from '../domains/time-zone.ts';
import type { Logger } from '../logger.ts';
import { mailMessage } from '../mail/message.ts';
import { summaryOf, summaryRange, type Period } from './summaries.ts';
import { summaryMail } from './summary-mail.ts';
import type { Mailing } from './mailing.ts';
import { Rounds } from '../rounds.ts';

/** The local hour from which a due summary goes. */
const SEND_FROM = '07:00';
const EVERY_MS = 5 * 60_000;

export class SummarySender {
  private readonly rounds: Rounds;

  constructor(
    private readonly m: Mailing,
    log?: Logger,
  ) {
    this.rounds = new Rounds(() => this.tick(), 'sending summaries', log);
  }

  start(): void {
    this.rounds.start(EVERY_MS);
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** Sends the summaries due at `now`: a domain's weekly one on Monday, its monthly one on the 1st. */
  async tick(now = new Date()): Promise<void> {
    for await (const domain of this.m.c.domains.find({})) {
      const { day, time } = localTime(now, domain.timeZone);
      if (time < SEND_FROM) continue;
      const due: Period[] = [...(new Date(`${day}T00:00:00Z`).getUTCDay() === 1 ? ['week' as const] : []), ...(day.endsWith('-01') ? ['month' as const] : [])];
      for (const period of due) {
        const run = `${domain._id}|${period}|${summaryRange(period, now, domain.timeZone).from}`;
        try {
          await this.m.c.summaryRuns.insertOne({ _id: run, at: now });
        } catch (err) {
          if (isDuplicateKey(err)) continue; // sent already, here or by another process
          throw err;
        }
        await this.send(domain, period, 'chosen', now);
      }
    }
  }

  /** Queues the summary for the people who chose it, and the domain's owners when asked; their addresses. */
  async send(domain: DomainDoc, period: Period, audience: 'chosen' | 'owners and chosen', now = new Date()): Promise<string[]> {
    const choice = period === 'week' ? 'weekly' : 'monthly';
    const recipients = (await this.m.choices.recipients(domain)).filter(({ user, choices }) => choices[choice] || (audience === 'owners and chosen' && user.role === 'owner'));
    if (!recipients.length) return [];
    const summary = await summaryOf(this.m.c, domain, period, now);
    for (const { user } of recipients) {
      const unsubscribeUrl = await this.m.links.issue(user._id, domain._id, choice, now);
      const body = summaryMail({ summary, to: user._id, domain, publicUrl: this.m.publicUrl, unsubscribeUrl });
      await this.m.outbox.enqueue(mailMessage(domain.accountId, 'summary', body));
    }
    return recipients.map(({ user }) => user._id);
  }
}
