// What a matched rule tells beyond the call or form itself: a chat channel's incoming webhook in
// Slack's documented format (`{"text": …}`, which Mattermost, Rocket.Chat and Discord's /slack route
// take too), and the account's `rule` push. Both go through the outbox: retried, never blocking.
import { maskCaller } from '../domains/caller-privacy.ts';
import { callerWritten, writesAsSpec } from '../domains/phone-display.ts';
import { countryOf } from '../domains/phone-numbers.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { MarkEntry } from '../telephony/documents.ts';
import type { OutboxMessage } from '../webhooks/documents.ts';
import type { RuleDoc } from './documents.ts';

/** The call, form or text a rule matched, as its notices name it. */
export type Matched = MatchedContact | MatchedText;

interface MatchedContact {
  kind: 'call' | 'form';
  id: number;
  /** The caller's number or the form's phone, stored whole: masked as the domain says. */
  phone: string | null;
  source: string | null;
  /** Seconds, for a call. */
  duration: number | null;
}

/** A text received (issue 68): its inbox id (`in:<smsId>`), its conversation's, its words. */
interface MatchedText {
  kind: 'text';
  id: string;
  conversationId: string;
  phone: string;
  source: string | null;
  words: string;
}

/** A chat message quotes at most this many characters of a text (the inbox has it whole). */
const QUOTED = 140;

/** The back end's screen of what was matched: a call's or form's page, a text's conversation. */
export const screenOf = (matched: Matched) => (matched.kind === 'text' ? `inbox?id=${encodeURIComponent(matched.conversationId)}` : `${matched.kind}?id=${matched.id}`);

/** The push's and mails' ids of what was matched. */
const idsOf = (matched: Matched) => (matched.kind === 'text' ? { textId: matched.id, conversationId: matched.conversationId } : matched.kind === 'call' ? { callId: matched.id } : { formId: matched.id });

/** Slack's escaping of `&`, `<` and `>` in a message's text (its "Formatting text" guide). */
const slackText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function chatMessage(rule: Pick<RuleDoc, 'name'>, domain: DomainDoc, matched: Matched, taken: string[], link: string): { text: string } {
  // Written as the domain's country writes callers; a French domain's as it always was, in digits.
  const who = matched.phone ? (writesAsSpec(countryOf(domain)) ? maskCaller(matched.phone, domain.callerPrivacy) : callerWritten(matched.phone, domain)) : null;
  const what =
    matched.kind === 'text'
      ? `a text from ${who}, "${matched.words.length > QUOTED ? `${matched.words.slice(0, QUOTED - 1)}…` : matched.words}"`
      : matched.kind === 'call'
        ? `a call${who ? ` from ${who}` : ''}${matched.duration !== null ? ` (${matched.duration} s)` : ''}`
        : `a form${who ? ` from ${who}` : ''}`;
  const done = taken.length ? `: ${taken.join(', ')}` : '';
  return { text: `RingTrail ${slackText(domain.name)}: rule *${slackText(rule.name)}* matched ${slackText(what)}, source ${slackText(matched.source ?? 'unattributed')}${slackText(done)}. <${link}|Open it>` };
}

/** The account's `rule` push, shaped as its other pushes (`type`, and the call's or form's id first;
 * a text's id and its conversation's): the rule, what it matched, the actions taken. */
export function rulePush(rule: Pick<RuleDoc, '_id' | 'name'>, matched: Matched, taken: string[], at: Date) {
  const id = idsOf(matched);
  return { ...id, type: 'rule', view: null, cart: null, order: null, rule: { name: rule.name, ruleId: rule._id, ...id, actions: taken, at: at.toISOString() } };
}

/** The chat message as an outbox message; its fixed id makes a second run of the same moment send nothing more. */
export function chatOutbox(accountId: string, id: string, url: string, message: { text: string }): OutboxMessage {
  return { id, accountId, stream: `chat:${id}`, kind: 'webhook', label: 'chat', url, contentType: 'application/json', body: JSON.stringify(message), signed: false };
}

/** What a rule's entries say it did, in words. */
export const takenOf = (entries: MarkEntry[]) => entries.map((e) => e.what);
