// The one-click unsubscribe links of the mails (RFC 8058): each names one choice of one person for
// one domain, by a random token stored as its SHA-256, working 90 days. Using one turns that choice
// off and nothing else; using it again says it was used; a forged or expired one says so. A rule's
// mails have theirs too: using it, the rule mails that recipient no more (rules/rule-mails.ts).
import { createHash, randomBytes } from 'node:crypto';
import { AlertChoicesStore } from './choices.ts';
import { CALL_ALERTS, UNSUBSCRIBE_DAYS, type AlertChoice, type UnsubscribeTokenDoc, type AlertCollections } from './documents.ts';
import type { RateLimitCollections } from '../http/documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { RuleCollections } from '../rules/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import { RuleMails } from './rule-mails.ts';

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** What an unsubscribe link is about, as its page says it. */
export const CHOICE_NAMES: Record<AlertChoice, string> = {
  missedCall: 'missed-call alerts',
  newLead: 'new-lead alerts',
  firstCaller: 'first-time caller alerts',
  spamBlocked: 'spam-blocked alerts',
  newText: 'new-text alerts',
  missedOutsideHours: 'missed-call alerts outside opening hours',
  warnings: 'warnings that tracking is broken',
  weekly: 'the weekly summary',
  monthly: 'the monthly summary',
};

/** What a link stops, in words: `new-lead alerts`, `the mails of the rule Booked`. */
export const choiceName = (token: Pick<UnsubscribeTokenDoc, 'choice' | 'label'>) => token.label ?? CHOICE_NAMES[token.choice as AlertChoice] ?? token.choice;

export type Unsubscribed = { state: 'done' | 'used'; token: UnsubscribeTokenDoc } | { state: 'invalid' };

export class UnsubscribeLinks {
  constructor(
    private readonly c: AlertCollections & TeamCollections & RuleCollections & DomainCollections & RateLimitCollections,
    /** The collector's public address: the links' base. */
    private readonly publicUrl: string,
  ) {}

  /** A new link for one choice of a person for a domain. */
  async issue(username: string, domainId: string, choice: UnsubscribeTokenDoc['choice'], now = new Date(), label?: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.c.unsubscribeTokens.insertOne({ _id: digest(token), username, domainId, choice, ...(label ? { label } : {}), createdAt: now, usedAt: null });
    return `${this.publicUrl}/mail/unsubscribe/${token}`;
  }

  /** The link's token, if it is one that works or worked. */
  async find(token: string, now = new Date()): Promise<UnsubscribeTokenDoc | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const doc = await this.c.unsubscribeTokens.findOne({ _id: digest(token) });
    // The TTL index removes old tokens within a minute or so; one past its days is old already.
    return doc && now.getTime() - doc.createdAt.getTime() < UNSUBSCRIBE_DAYS * 86_400_000 ? doc : null;
  }

  /** Turns the link's choice off, once. */
  async use(token: string, now = new Date()): Promise<Unsubscribed> {
    const doc = await this.find(token, now);
    if (!doc) return { state: 'invalid' };
    const claimed = await this.c.unsubscribeTokens.findOneAndUpdate({ _id: doc._id, usedAt: null }, { $set: { usedAt: now } }, { returnDocument: 'after' });
    if (!claimed) return { state: 'used', token: doc };
    if (doc.choice.startsWith('rule:')) {
      await new RuleMails(this.c).stop(doc.choice.slice('rule:'.length), doc.username);
      return { state: 'done', token: claimed };
    }
    const user = await this.c.users.findOne({ _id: doc.username });
    if (user) await new AlertChoicesStore(this.c).set(user, doc.domainId, { [doc.choice]: (CALL_ALERTS as readonly string[]).includes(doc.choice) ? 'off' : false });
    return { state: 'done', token: claimed };
  }
}
