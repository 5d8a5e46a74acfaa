// Texts as the rules see them (rules/, moment `text-received`): each text received as it comes, and
// a domain's past texts for a rule's preview. An erased person's texts (no words, no number) are none.
import type { RuleRunner } from '../rules/rule-runner.ts';
import type { RuleText } from '../rules/subject.ts';
import type { ConversationDoc, TextingCollections, TextMessageDoc } from './documents.ts';

export function ruleTextOf(conversation: ConversationDoc, message: TextMessageDoc): RuleText | null {
  if (message.body === null || message.smsId === undefined || !conversation.phone) return null;
  return {
    id: message._id,
    smsId: message.smsId,
    conversationId: conversation._id,
    domainId: conversation.domainId,
    personId: conversation.personId,
    at: message.at,
    from: conversation.phone,
    trackingNumber: conversation.trackingNumber,
    body: message.body,
    source: message.source ?? null,
    keyword: message.keyword ?? null,
    lastTouch: message.lastTouch ?? null,
  };
}

/** A text received, to the domain's `text-received` rules. */
export async function textToRules(rules: Pick<RuleRunner, 'textReceived'>, conversation: ConversationDoc, message: TextMessageDoc): Promise<void> {
  const text = ruleTextOf(conversation, message);
  if (text) await rules.textReceived(text);
}

/** The newest texts a domain received in [from, to), `limit` at most, as the rules see them. */
export async function pastTexts(c: TextingCollections, domainId: string, from: Date, to: Date, limit: number): Promise<RuleText[]> {
  const messages = await c.textMessages.find({ domainId, direction: 'inbound', at: { $gte: from, $lt: to } }, { sort: { at: -1, smsId: -1 }, limit }).toArray();
  const ids = [...new Set(messages.map((m) => m.conversationId))];
  const conversations = new Map((ids.length ? await c.conversations.find({ _id: { $in: ids } }).toArray() : []).map((cv) => [cv._id, cv]));
  return messages.flatMap((m) => {
    const conversation = conversations.get(m.conversationId);
    const text = conversation && ruleTextOf(conversation, m);
    return text ? [text] : [];
  });
}
