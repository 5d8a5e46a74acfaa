// A domain's rules, written by a person: checked beyond their shape (tags of the account, a chat
// webhook at a public https address outside development, members to mail who see the domain,
// conditions that can match), at most MAX_RULES a domain, kept in order.
import { randomUUID } from 'node:crypto';
import { canonicalIn, DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';
import { privateAddressOf } from '../webhooks/public-address.ts';
import type { RuleCollections, RuleDoc } from './documents.ts';
import { actionRefused, MAX_RULES, neverMatches, type RuleBody } from './rule-input.ts';
import { Tags } from './tags.ts';
import type { TeamCollections } from '../team/documents.ts';
import { maySee } from '../team/roles.ts';

export class RuleRefused extends Error {}

/** What a rule is checked against: its account's tags, its country's numbers. */
type RuleDomain = { _id: string; accountId: string; country?: string };

/** Addresses outside the team one rule may mail (its members are not counted). */
export const MAX_OUTSIDE_ADDRESSES = 3;

export class RuleStore {
  private readonly tags: Tags;

  constructor(
    private readonly c: RuleCollections & TeamCollections,
    /** Outside development and test: chat webhooks only at public https addresses (ALLOW_PRIVATE_WEBHOOKS). */
    private readonly publicOnly: boolean,
  ) {
    this.tags = new Tags(c);
  }

  list(domainId: string): Promise<RuleDoc[]> {
    return this.c.rules.find({ domainId }, { sort: { position: 1 }, limit: MAX_RULES }).toArray();
  }

  get(domainId: string, ruleId: string): Promise<RuleDoc | null> {
    return this.c.rules.findOne({ _id: ruleId, domainId });
  }

  async create(domain: RuleDomain, body: RuleBody, by: string, now = new Date()): Promise<RuleDoc> {
    const checked = await this.checked(domain, body);
    const last = await this.c.rules.find({ domainId: domain._id }, { sort: { position: -1 }, limit: 1, projection: { position: 1 } }).toArray();
    if ((await this.c.rules.countDocuments({ domainId: domain._id }, { limit: MAX_RULES })) >= MAX_RULES) throw new RuleRefused(`a domain has at most ${MAX_RULES} rules`);
    const rule: RuleDoc = { _id: `rule_${randomUUID()}`, domainId: domain._id, ...checked, position: (last[0]?.position ?? 0) + 1, createdAt: now, updatedAt: now, updatedBy: by };
    await this.c.rules.insertOne(rule);
    return rule;
  }

  async update(domain: RuleDomain, ruleId: string, body: RuleBody, by: string, now = new Date()): Promise<RuleDoc | null> {
    const checked = await this.checked(domain, body);
    return this.c.rules.findOneAndUpdate({ _id: ruleId, domainId: domain._id }, { $set: { ...checked, updatedAt: now, updatedBy: by } }, { returnDocument: 'after' });
  }

  async delete(domainId: string, ruleId: string): Promise<boolean> {
    return (await this.c.rules.deleteOne({ _id: ruleId, domainId })).deletedCount === 1;
  }

  /** The rule as stored: its tags as the account writes them; refused with the field that is wrong. */
  private async checked({ _id: domainId, accountId, country }: RuleDomain, rule: RuleBody): Promise<RuleBody> {
    // A number called is kept as the domain's numbers are (canonicalIn), whatever form it was typed in.
    const conditions = rule.conditions.map((condition, i) => {
      if (condition.field !== 'trackingNumber') return condition;
      const digits = canonicalIn(condition.value, country ?? DEFAULT_COUNTRY);
      if (!digits) throw new RuleRefused(`conditions.${i}.value: must be a phone number`);
      return { ...condition, value: digits };
    });
    const body = { ...rule, conditions };
    const never = neverMatches(body) ?? actionRefused(body);
    if (never) throw new RuleRefused(never);
    const actions = [];
    for (const [i, action] of body.actions.entries()) {
      if (action.type === 'tag') {
        const { names, unknown } = await this.tags.named(accountId, [action.tag]);
        if (unknown) throw new RuleRefused(`actions.${i}.tag: the account has no tag ${unknown}`);
        actions.push({ ...action, tag: names[0]! });
        continue;
      }
      if (action.type === 'chat') {
        const url = new URL(action.url);
        if (this.publicOnly && url.protocol !== 'https:') throw new RuleRefused(`actions.${i}.url: must be an https URL`);
        const privateAddress = this.publicOnly ? await privateAddressOf(url.hostname) : null;
        if (privateAddress) throw new RuleRefused(`actions.${i}.url: ${url.hostname} is ${privateAddress}, a private address: chat webhooks go to public addresses only (ALLOW_PRIVATE_WEBHOOKS)`);
      }
      if (action.type === 'mail') await this.checkMembers(accountId, domainId, action.members, `actions.${i}.members`);
      actions.push(action);
    }
    await this.checkOutsideAddresses(accountId, actions);
    return { ...body, actions };
  }

  /** A rule mails at most MAX_OUTSIDE_ADDRESSES addresses outside the team (issue 70): an anonymous
   * form must not make the collector a relay to a list of strangers. */
  private async checkOutsideAddresses(accountId: string, actions: RuleBody['actions']): Promise<void> {
    const addresses = [...new Set(actions.flatMap((a) => (a.type === 'mail' && a.address ? [a.address] : [])))];
    if (addresses.length <= MAX_OUTSIDE_ADDRESSES) return;
    const members = new Set((await this.c.users.find({ _id: { $in: addresses }, accountId }, { projection: { _id: 1 } }).toArray()).map((u) => u._id));
    const outside = addresses.filter((a) => !members.has(a));
    if (outside.length > MAX_OUTSIDE_ADDRESSES) throw new RuleRefused(`actions: a rule mails at most ${MAX_OUTSIDE_ADDRESSES} addresses outside the team (this one ${outside.length}); mail members instead, or a team address that forwards`);
  }

  /** Members to mail: each of the account, and seeing the domain. */
  private async checkMembers(accountId: string, domainId: string, members: string[], field: string): Promise<void> {
    const users = new Map((await this.c.users.find({ _id: { $in: members }, accountId }).toArray()).map((u) => [u._id, u]));
    for (const member of members) {
      const user = users.get(member);
      if (!user) throw new RuleRefused(`${field}: ${member} is not a member of the account`);
      if (!maySee(user, domainId)) throw new RuleRefused(`${field}: ${member} does not see this domain`);
    }
  }
}
