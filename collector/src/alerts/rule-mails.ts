// A rule's mail action (rules/, issue 55): each recipient (a member of the account who sees the domain, or an address)
// gets one pending alert per call or form the rule matched, which the alerts' mailer
// (alert-mailer.ts) gathers like the call alerts: a burst is one mail a minute to each. As it
// mails, it asks here whether the rule still mails that recipient; one who used the mail's
// unsubscribe link is mailed by that rule no more.
import type { AlertCollections, PendingAlertDoc } from './documents.ts';
import { insertPending } from './call-alerts.ts';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import { maySee } from '../team/roles.ts';
import type { RuleCollections, RuleDoc } from '../rules/documents.ts';

/** Whom a rule mails: its mail actions' members and addresses, each once, but those who left. */
export function mailRecipients(rule: Pick<RuleDoc, 'actions' | 'unsubscribed'>): string[] {
  const named = rule.actions.flatMap((a) => (a.type === 'mail' ? [...a.members, ...(a.address ? [a.address] : [])] : []));
  return [...new Set(named)].filter((recipient) => !rule.unsubscribed?.includes(recipient));
}

const isAddressOf = (rule: RuleDoc, recipient: string) => rule.actions.some((a) => a.type === 'mail' && a.address === recipient);

/** The outbox's check that a rule of the account still mails an address outside the team. */
export const ruleMailAddress = (c: ConstructorParameters<typeof RuleMails>[0]) => (accountId: string, address: string) => new RuleMails(c).namesAddress(accountId, address);

export class RuleMails {
  constructor(private readonly c: RuleCollections & TeamCollections & AlertCollections & DomainCollections) {}

  /** The rule's mails about a call or form it matched, one pending alert a recipient; `key` names
   * the moment, so that a second run of it queues nothing more. */
  async queue(domain: Pick<DomainDoc, '_id' | 'accountId'>, rule: RuleDoc, about: Pick<PendingAlertDoc, 'callId' | 'formId'>, key: string, now: Date): Promise<void> {
    const pending = mailRecipients(rule).map((to): PendingAlertDoc => ({ _id: `${key}|rule:${rule._id}|${to}`, username: to, accountId: domain.accountId, domainId: domain._id, alert: 'rule', ruleId: rule._id, ...about, at: now, delivery: 'immediate', dueAt: now, batch: null }));
    await insertPending(this.c, pending);
  }

  /** The rule, if it still mails `recipient` about this domain: its address, or a member still of
   * the account who sees the domain; null otherwise (deleted, changed, unsubscribed). */
  async mailing(ruleId: string, domain: Pick<DomainDoc, '_id' | 'accountId'>, recipient: string): Promise<RuleDoc | null> {
    const rule = await this.c.rules.findOne({ _id: ruleId, domainId: domain._id });
    if (!rule || !mailRecipients(rule).includes(recipient)) return null;
    if (isAddressOf(rule, recipient)) return rule;
    const user = await this.c.users.findOne({ _id: recipient });
    return user && user.accountId === domain.accountId && maySee(user, domain._id) ? rule : null;
  }

  /** Whether a rule of the account still mails this address (the outbox's last check before sending). */
  async namesAddress(accountId: string, address: string): Promise<boolean> {
    const rules = await this.c.rules.find({ 'actions.address': address }, { projection: { domainId: 1, unsubscribed: 1 }, limit: 1000 }).toArray();
    const domainIds = rules.filter((rule) => !rule.unsubscribed?.includes(address)).map((rule) => rule.domainId);
    return domainIds.length > 0 && (await this.c.domains.countDocuments({ _id: { $in: domainIds }, accountId }, { limit: 1 })) > 0;
  }

  /** The mails' unsubscribe link used: the rule mails `recipient` no more (kept on the rule, shown). */
  async stop(ruleId: string, recipient: string): Promise<void> {
    await this.c.rules.updateOne({ _id: ruleId }, { $addToSet: { unsubscribed: recipient } });
  }
}
