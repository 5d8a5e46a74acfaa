// Watches for the warnings that tracking is broken (warnings.ts) every minute, and mails the
// domain's people who keep warnings on (owners and admins unless they turned them off, anyone who
// turned them on) once when a warning starts and once when it ends, never each minute in between.
// A transition is one conditional write, so with several processes one of them mails it.
import { isDuplicateKey } from '../db/writes.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { Logger } from '../logger.ts';
import { mailMessage } from '../mail/message.ts';
import type { UserDoc } from '../team/documents.ts';
import type { Mailing } from './mailing.ts';
import { Rounds } from '../rounds.ts';
import { warningMail } from './warning-mail.ts';
import { adsBroken, crmBroken, flowFailing, callsWithoutOutcome, carrierBroken, numbersMiswired, poolExhausted, refusedOrigins, tagStopped, modelFailing, WARNINGS, webhookFailing, type Facts, type Warning } from './warnings.ts';
import type { WarningStateDoc } from './documents.ts';

const EVERY_MS = 60_000;

interface Scope {
  accountId: string;
  domainId: string | null;
}

export class WarningWatch {
  private readonly rounds: Rounds;

  constructor(
    private readonly m: Mailing,
    log?: Logger,
  ) {
    this.rounds = new Rounds(() => this.tick(), 'watching for warnings', log);
  }

  start(everyMs = EVERY_MS): void {
    this.rounds.start(everyMs);
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  async tick(now = new Date()): Promise<void> {
    const silent = await callsWithoutOutcome(this.m.c, now);
    const accounts = new Set<string>();
    for await (const domain of this.m.c.domains.find({})) {
      accounts.add(domain.accountId);
      const scope = { accountId: domain.accountId, domainId: domain._id };
      const states = await this.statesOf(scope);
      const calls = silent.get(domain._id);
      await this.settle(scope, 'tag-stopped', await tagStopped(this.m.c, domain, now), now, states);
      await this.settle(scope, 'pool-exhausted', await poolExhausted(this.m.c, domain, now), now, states);
      await this.settle(scope, 'refused-origins', await refusedOrigins(domain, now, isOngoing(states.get('refused-origins'))), now, states);
      await this.settle(scope, 'carrier-silent', calls ? [['Calls without an outcome', String(calls)]] : null, now, states);
      await this.settle(scope, 'numbers-miswired', await numbersMiswired(this.m.c, domain), now, states);
      await this.settle(scope, 'ads-broken', await adsBroken(this.m.c, domain), now, states);
      await this.settle(scope, 'crm-broken', await crmBroken(this.m.c, domain), now, states);
      await this.settle(scope, 'flow-failing', await flowFailing(this.m.c, domain, now), now, states);
    }
    for (const accountId of accounts) {
      const scope = { accountId, domainId: null };
      const states = await this.statesOf(scope);
      await this.settle(scope, 'webhook-failing', await webhookFailing(this.m.c, accountId, now), now, states);
      await this.settle(scope, 'carrier-broken', await carrierBroken(this.m.c, accountId), now, states);
      await this.settle(scope, 'transcription-failing', await modelFailing(this.m.c, accountId, now, 'transcript'), now, states);
      await this.settle(scope, 'analysis-failing', await modelFailing(this.m.c, accountId, now, 'analysis'), now, states);
    }
  }

  /** The warnings of a domain (or an account) as stored, read once a round. */
  private async statesOf(scope: Scope): Promise<Map<string, WarningStateDoc>> {
    const docs = await this.m.c.warningStates.find({ _id: { $in: WARNINGS.map((w) => stateKey(scope, w)) } }).toArray();
    return new Map(docs.map((doc) => [doc.warning, doc]));
  }

  /** Starts the warning (facts) or ends it (null), mailing the transition once. */
  private async settle(scope: Scope, warning: Warning, facts: Facts | null, now: Date, states: Map<string, WarningStateDoc>): Promise<void> {
    const _id = stateKey(scope, warning);
    const state = states.get(warning);
    if (facts) {
      if (isOngoing(state)) return; // said already
      if (state) {
        const { modifiedCount } = await this.m.c.warningStates.updateOne({ _id, endedAt: state.endedAt }, { $set: { since: now, endedAt: null, facts } });
        if (!modifiedCount) return;
      } else {
        try {
          await this.m.c.warningStates.insertOne({ _id, ...scope, warning, since: now, endedAt: null, facts });
        } catch (err) {
          if (isDuplicateKey(err)) return;
          throw err;
        }
      }
      await this.mail(scope, warning, 'start', facts);
    } else if (isOngoing(state)) {
      const ended = await this.m.c.warningStates.findOneAndUpdate({ _id, endedAt: null }, { $set: { endedAt: now } });
      if (ended) await this.mail(scope, warning, 'end', ended.facts);
    }
  }

  private async mail(scope: Scope, warning: Warning, phase: 'start' | 'end', facts: Facts): Promise<void> {
    for (const { user, domainId } of await this.recipients(scope)) {
      const unsubscribeUrl = await this.m.links.issue(user._id, domainId, 'warnings');
      await this.m.outbox.enqueue(mailMessage(scope.accountId, 'warning', warningMail({ warning, phase, to: user._id, scope, facts, publicUrl: this.m.publicUrl, unsubscribeUrl })));
    }
  }

  /** The domain's people with warnings on; for an account's warning, anyone with them on for one of its domains. */
  private async recipients(scope: Scope): Promise<{ user: UserDoc; domainId: string }[]> {
    const domains: Pick<DomainDoc, '_id' | 'accountId'>[] = scope.domainId ? [{ _id: scope.domainId, accountId: scope.accountId }] : await this.m.c.domains.find({ accountId: scope.accountId }, { projection: { accountId: 1 } }).toArray();
    const chosen = new Map<string, { user: UserDoc; domainId: string }>();
    for (const domain of domains) {
      for (const { user, choices } of await this.m.choices.recipients(domain)) if (choices.warnings && !chosen.has(user._id)) chosen.set(user._id, { user, domainId: domain._id });
    }
    return [...chosen.values()];
  }
}

const isOngoing = (state: WarningStateDoc | undefined) => Boolean(state && !state.endedAt);

const stateKey = (scope: Scope, warning: Warning) => `${scope.domainId ?? `account:${scope.accountId}`}|${warning}`;
