// A rule's mail action (rules/, issue 55): each recipient (a member of the account who sees the domain, or an address)
// gets one pending alert per call or form the rule matched, which the alerts' mailer
// (alert-mailer.ts) gathers like the call alerts: a burst is one mail a minute to each. As it
// mails, it asks here whether the rule still mails that recipient.
//
// No relay (issue 70): a rule names at most 3 addresses outside the team (rule-store.ts); an
// outside address gets at most OUTSIDE_PER_ADDRESS matches an hour from the account, and the
// account's rules at most OUTSIDE_PER_ACCOUNT to outside addresses in all (the rest are not
// mailed); and one who used a mail's unsubscribe link is mailed by no rule of the account again,
// kept on the account (`ruleMailsStopped`), not on the rule, so a rule deleted and made again does
// not mail them either.
import type { AlertCollections, PendingAlertDoc } from './documents.ts';
import { alertText, insertPending } from './call-alerts.ts';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import { maySee } from '../team/roles.ts';
import type { RuleCollections, RuleDoc } from '../rules/documents.ts';
import type { QueueRuleMails } from '../rules/rule-runner.ts';
import type { RateLimitCollections } from '../http/documents.ts';
import { WindowLimiter } from '../http/rate-limits.ts';

/** Matches one address outside the team is mailed about at most in an hour, by all of an account's rules. */
export const OUTSIDE_PER_ADDRESS = 10;
/** Matches an account's rules mail to addresses outside the team at most in an hour, in all. */
export const OUTSIDE_PER_ACCOUNT = 30;
/** Unsubscribed recipients an account keeps (the newest). */
const STOPPED_KEPT = 1000;

/** Whom a rule mails: its mail actions' members and addresses, each once, but those who left (by
 * this rule's link, or by any rule's of the account: `stopped`). */
export function mailRecipients(rule: Pick<RuleDoc, 'actions' | 'unsubscribed'>, stopped: readonly string[] = []): string[] {
  return mailNamed(rule).filter((recipient) => !rule.unsubscribed?.includes(recipient) && !stopped.includes(recipient));
}

/** Everyone a rule's mail actions name, each once. */
export const mailNamed = (rule: Pick<RuleDoc, 'actions'>) => [...new Set(rule.actions.flatMap((a) => (a.type === 'mail' ? [...a.members, ...(a.address ? [a.address] : [])] : [])))];

/** Who left the account's rule mails by a link (any rule's). */
export async function stoppedOf(c: TeamCollections, accountId: string): Promise<string[]> {
  return (await c.accounts.findOne({ _id: accountId }, { projection: { ruleMailsStopped: 1 } }))?.ruleMailsStopped ?? [];
}

const isAddressOf = (rule: RuleDoc, recipient: string) => rule.actions.some((a) => a.type === 'mail' && a.address === recipient);

/** The outbox's check that a rule of the account still mails an address outside the team. */
export const ruleMailAddress = (c: ConstructorParameters<typeof RuleMails>[0]) => (accountId: string, address: string) => new RuleMails(c).namesAddress(accountId, address);

export class RuleMails {
  private readonly perAddress: WindowLimiter;
  private readonly perAccount: WindowLimiter;

  constructor(private readonly c: RuleCollections & TeamCollections & AlertCollections & DomainCollections & RateLimitCollections) {
    this.perAddress = new WindowLimiter(c.rateLimits, 'rule-mail-address', OUTSIDE_PER_ADDRESS, 3600);
    this.perAccount = new WindowLimiter(c.rateLimits, 'rule-mail-outside', OUTSIDE_PER_ACCOUNT, 3600);
  }

  /** The rule's mails about a call, form or text it matched, one pending alert a recipient; `key`
   * names the moment, so that a second run of it queues nothing more. Addresses outside the team
   * within the hour's limits only. */
  async queue(domain: Pick<DomainDoc, '_id' | 'accountId'>, rule: RuleDoc, matched: Parameters<QueueRuleMails>[2], key: string, now: Date): Promise<void> {
    const about: Pick<PendingAlertDoc, 'callId' | 'formId' | 'text'> = 'text' in matched ? { text: alertText(matched.text) } : matched;
    const recipients = mailRecipients(rule, await stoppedOf(this.c, domain.accountId));
    const outside = await this.outsideOf(domain.accountId, recipients.filter((to) => isAddressOf(rule, to)));
    const allowed: string[] = [];
    for (const to of recipients) if (!outside.has(to) || (await this.withinLimits(domain.accountId, to, now))) allowed.push(to);
    const pending = allowed.map((to): PendingAlertDoc => ({ _id: `${key}|rule:${rule._id}|${to}`, username: to, accountId: domain.accountId, domainId: domain._id, alert: 'rule', ruleId: rule._id, ...about, at: now, delivery: 'immediate', dueAt: now, batch: null }));
    await insertPending(this.c, pending);
  }

  /** The addresses that are no member of the account. */
  private async outsideOf(accountId: string, addresses: string[]): Promise<Set<string>> {
    if (!addresses.length) return new Set();
    const members = new Set((await this.c.users.find({ _id: { $in: addresses }, accountId }, { projection: { _id: 1 } }).toArray()).map((u) => u._id));
    return new Set(addresses.filter((a) => !members.has(a)));
  }

  /** Counts one match for an outside address: false once it or the account is over the hour's limit. */
  private async withinLimits(accountId: string, address: string, now: Date): Promise<boolean> {
    if ((await this.perAddress.secondsOver(`${accountId}|${address}`, now.getTime())) !== null) return false;
    return (await this.perAccount.secondsOver(accountId, now.getTime())) === null;
  }

  /** The rule, if it still mails `recipient` about this domain: its address, or a member still of
   * the account who sees the domain; null otherwise (deleted, changed, unsubscribed). */
  async mailing(ruleId: string, domain: Pick<DomainDoc, '_id' | 'accountId'>, recipient: string): Promise<RuleDoc | null> {
    const rule = await this.c.rules.findOne({ _id: ruleId, domainId: domain._id });
    if (!rule || !mailRecipients(rule, await stoppedOf(this.c, domain.accountId)).includes(recipient)) return null;
    if (isAddressOf(rule, recipient)) return rule;
    const user = await this.c.users.findOne({ _id: recipient });
    return user && user.accountId === domain.accountId && maySee(user, domain._id) ? rule : null;
  }

  /** Whether a rule of the account still mails this address (the outbox's last check before sending). */
  async namesAddress(accountId: string, address: string): Promise<boolean> {
    if ((await stoppedOf(this.c, accountId)).includes(address)) return false;
    const rules = await this.c.rules.find({ 'actions.address': address }, { projection: { domainId: 1, unsubscribed: 1 }, limit: 1000 }).toArray();
    const domainIds = rules.filter((rule) => !rule.unsubscribed?.includes(address)).map((rule) => rule.domainId);
    return domainIds.length > 0 && (await this.c.domains.countDocuments({ _id: { $in: domainIds }, accountId }, { limit: 1 })) > 0;
  }

  /** The mails' unsubscribe link used: no rule of the account mails `recipient` again (kept on the
   * account, and on the rule, whose card shows it). */
  async stop(ruleId: string, recipient: string): Promise<void> {
    const rule = await this.c.rules.findOne({ _id: ruleId }, { projection: { domainId: 1 } });
    await this.c.rules.updateOne({ _id: ruleId }, { $addToSet: { unsubscribed: recipient } });
    const domain = rule && (await this.c.domains.findOne({ _id: rule.domainId }, { projection: { accountId: 1 } }));
    if (domain) await this.c.accounts.updateOne({ _id: domain.accountId, ruleMailsStopped: { $ne: recipient } }, { $push: { ruleMailsStopped: { $each: [recipient], $slice: -STOPPED_KEPT } } });
  }
}
