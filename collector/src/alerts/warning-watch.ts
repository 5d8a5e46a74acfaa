// Watches for the warnings that tracking is broken (warnings.ts) every minute, and mails the
// domain's people who keep warnings on (owners and admins unless they turned them off, anyone who
// turned them on) once when a warning starts and once when it ends, never each minute in between.
// A transition is one conditional write, so with several processes one of them mails it.
import type { Collections } from '../db/collections.ts';
import { isDuplicateKey } from '../db/writes.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { Logger } from '../logger.ts';
import { mailMessage } from '../mail/message.ts';
import type { UserDoc } from '../manage/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { AlertChoicesStore } from './choices.ts';
import { UnsubscribeLinks } from './unsubscribe.ts';
import { warningMail } from './warning-mail.ts';
import { callsWithoutOutcome, poolExhausted, refusedOrigins, tagStopped, webhookFailing, type Facts, type Warning } from './warnings.ts';

const EVERY_MS = 60_000;

interface Scope {
  accountId: string;
  domainId: string | null;
}

export class WarningWatch {
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

  start(everyMs = EVERY_MS): void {
    this.timer = setInterval(() => {
      this.round = this.round.then(() => this.tick()).catch((err) => this.log?.error({ err }, 'watching for warnings failed'));
    }, everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
  }

  async tick(now = new Date()): Promise<void> {
    const silent = await callsWithoutOutcome(this.c, now);
    const accounts = new Set<string>();
    for await (const domain of this.c.domains.find({})) {
      accounts.add(domain.accountId);
      const scope = { accountId: domain.accountId, domainId: domain._id };
      const ongoing = await this.c.warningStates.findOne({ _id: stateKey(scope, 'refused-origins'), endedAt: null });
      const calls = silent.get(domain._id);
      await this.settle(scope, 'tag-stopped', await tagStopped(this.c, domain, now), now);
      await this.settle(scope, 'pool-exhausted', await poolExhausted(this.c, domain, now), now);
      await this.settle(scope, 'refused-origins', await refusedOrigins(domain, now, Boolean(ongoing)), now);
      await this.settle(scope, 'carrier-silent', calls ? [['Calls without an outcome', String(calls)]] : null, now);
    }
    for (const accountId of accounts) await this.settle({ accountId, domainId: null }, 'webhook-failing', await webhookFailing(this.c, accountId, now), now);
  }

  /** Starts the warning (facts) or ends it (null), mailing the transition once. */
  private async settle(scope: Scope, warning: Warning, facts: Facts | null, now: Date): Promise<void> {
    const _id = stateKey(scope, warning);
    if (facts) {
      const state = await this.c.warningStates.findOne({ _id });
      if (state && !state.endedAt) return; // going on: said already
      if (state) {
        const { modifiedCount } = await this.c.warningStates.updateOne({ _id, endedAt: state.endedAt }, { $set: { since: now, endedAt: null, facts } });
        if (!modifiedCount) return;
      } else {
        try {
          await this.c.warningStates.insertOne({ _id, ...scope, warning, since: now, endedAt: null, facts });
        } catch (err) {
          if (isDuplicateKey(err)) return;
          throw err;
        }
      }
      await this.mail(scope, warning, 'start', facts);
    } else {
      const ended = await this.c.warningStates.findOneAndUpdate({ _id, endedAt: null }, { $set: { endedAt: now } });
      if (ended) await this.mail(scope, warning, 'end', ended.facts);
    }
  }

  private async mail(scope: Scope, warning: Warning, phase: 'start' | 'end', facts: Facts): Promise<void> {
    for (const { user, domainId } of await this.recipients(scope)) {
      const unsubscribeUrl = await this.links.issue(user._id, domainId, 'warnings');
      await this.outbox.enqueue(mailMessage(scope.accountId, 'warning', warningMail({ warning, phase, to: user._id, scope, facts, publicUrl: this.publicUrl, unsubscribeUrl })));
    }
  }

  /** The domain's people with warnings on; for an account's warning, anyone with them on for one of its domains. */
  private async recipients(scope: Scope): Promise<{ user: UserDoc; domainId: string }[]> {
    const domains: Pick<DomainDoc, '_id' | 'accountId'>[] = scope.domainId ? [{ _id: scope.domainId, accountId: scope.accountId }] : await this.c.domains.find({ accountId: scope.accountId }, { projection: { accountId: 1 } }).toArray();
    const chosen = new Map<string, { user: UserDoc; domainId: string }>();
    for (const domain of domains) {
      for (const { user, choices } of await this.choices.recipients(domain)) if (choices.warnings && !chosen.has(user._id)) chosen.set(user._id, { user, domainId: domain._id });
    }
    return [...chosen.values()];
  }
}

const stateKey = (scope: Scope, warning: Warning) => `${scope.domainId ?? `account:${scope.accountId}`}|${warning}`;
