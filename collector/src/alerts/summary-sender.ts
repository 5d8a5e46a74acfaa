// Sends the weekly and monthly summaries: on schedule (each Monday, and on the 1st, from 07:00 in
// the domain's time zone) to the people who chose them, claimed once per domain and period whatever
// the number of processes; and on demand (`npm run send-summaries`) to the domain's owners and the
// people who chose it.
import type { Collections } from '../db/collections.ts';
import { isDuplicateKey } from '../db/writes.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { localTime } from '../domains/time-zone.ts';
import type { Logger } from '../logger.ts';
import { mailMessage } from '../mail/message.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { AlertChoicesStore } from './choices.ts';
import { summaryOf, summaryRange, type Period } from './summaries.ts';
import { summaryMail } from './summary-mail.ts';
import { UnsubscribeLinks } from './unsubscribe.ts';

/** The local hour from which a due summary goes. */
const SEND_FROM = '07:00';
const EVERY_MS = 5 * 60_000;

export class SummarySender {
  private readonly choices: AlertChoicesStore;
  private readonly links: UnsubscribeLinks;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();

  constructor(
    private readonly c: Collections,
    private readonly outbox: Outbox,
    private readonly publicUrl: string,
    private readonly log?: Logger,
  ) {
    this.choices = new AlertChoicesStore(c);
    this.links = new UnsubscribeLinks(c, publicUrl);
  }

  start(): void {
    this.timer = setInterval(() => {
      this.round = this.round.then(() => this.tick()).catch((err) => this.log?.error({ err }, 'sending summaries failed'));
    }, EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
  }

  /** Sends the summaries due at `now`: a domain's weekly one on Monday, its monthly one on the 1st. */
  async tick(now = new Date()): Promise<void> {
    for await (const domain of this.c.domains.find({})) {
      const { day, time } = localTime(now, domain.timeZone);
      if (time < SEND_FROM) continue;
      const due: Period[] = [...(new Date(`${day}T00:00:00Z`).getUTCDay() === 1 ? ['week' as const] : []), ...(day.endsWith('-01') ? ['month' as const] : [])];
      for (const period of due) {
        const run = `${domain._id}|${period}|${summaryRange(period, now, domain.timeZone).from}`;
        try {
          await this.c.summaryRuns.insertOne({ _id: run, at: now });
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
    const recipients = (await this.choices.recipients(domain)).filter(({ user, choices }) => choices[choice] || (audience === 'owners and chosen' && user.role === 'owner'));
    if (!recipients.length) return [];
    const summary = await summaryOf(this.c, domain, period, now);
    for (const { user } of recipients) {
      const unsubscribeUrl = await this.links.issue(user._id, domain._id, choice, now);
      const body = summaryMail({ summary, to: user._id, domain, publicUrl: this.publicUrl, unsubscribeUrl });
      await this.outbox.enqueue(mailMessage(domain.accountId, 'summary', body));
    }
    return recipients.map(({ user }) => user._id);
  }
}
