// The `text` and `text-status` pushes (ours, opt-in by the account's `webhookEvents`, issue 68): each
// text received or sent in a conversation, and each status a sent text's carrier callback brings;
// signed, ordered per conversation and retried like every push, through the outbox. The number as the
// domain's caller privacy shows it; times at the domain's clock.
import { maskCaller } from '../domains/caller-privacy.ts';
import { wallClock } from '../agent/shapes.ts';
import { countryOf, nationalOf } from '../domains/phone-numbers.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import { OptInPushes } from '../webhooks/opt-in-push.ts';
import type { ConversationDoc, TextMessageDoc } from './documents.ts';


export class TextPush {
  private readonly pushes: OptInPushes;

  constructor(c: TeamCollections & WebhookCollections) {
    this.pushes = new OptInPushes(c);
  }

  /** A text received, or sent by a member. */
  async text(domain: DomainDoc, conversation: ConversationDoc, text: TextMessageDoc): Promise<void> {
    const receiver = await this.pushes.receiverOf(domain.accountId, 'text');
    if (!receiver) return;
    const data = {
      type: 'text',
      view: null,
      cart: null,
      order: null,
      text: {
        text_id: text._id,
        conversation_id: conversation._id,
        direction: text.direction,
        phone: conversation.phone ? maskCaller(nationalOf(conversation.phone, countryOf(domain)), domain.callerPrivacy) : null,
        tracking_phone: nationalOf(conversation.trackingNumber, countryOf(domain)),
        person_id: conversation.personId,
        body: text.body,
        sent_date: wallClock(text.at, domain.timeZone),
        status: text.status,
        ...(text.by ? { by: text.by } : {}),
      },
    };
    await this.pushes.send(receiver, `conversation:${conversation._id}`, data);
  }

  /** A sent text's new status, from its carrier's callback. */
  async status(domain: DomainDoc, text: TextMessageDoc): Promise<void> {
    const receiver = await this.pushes.receiverOf(domain.accountId, 'text-status');
    if (!receiver) return;
    const data = { type: 'text-status', view: null, cart: null, order: null, textStatus: { text_id: text._id, conversation_id: text.conversationId, status: text.status, error: text.error ?? null, at: wallClock(text.statusAt ?? text.at, domain.timeZone) } };
    await this.pushes.send(receiver, `conversation:${text.conversationId}`, data);
  }
}
