// Twilio's status callbacks of the texts sent (issue 68), at /telephony/twilio/text-status?text=<id>:
// signed, and taken only from the account that owns the text's tracking number (telephony/twilio.ts's
// guard, as the voice callbacks are): a forged or another account's callback changes nothing.
import type { TwilioCallbacks } from '../telephony/twilio.ts';
import { params, xml } from '../telephony/twilio-words.ts';
import twilio from 'twilio';
import type { TextingCollections, TextMessageDoc } from './documents.ts';
import type { TextSender } from './sender.ts';

/** `statusChanged`: told of each text a callback moved on (the `text-status` push). */
export function twilioTextStatus(c: TextingCollections, sender: TextSender, statusChanged: (text: TextMessageDoc) => Promise<void> = async () => {}): TwilioCallbacks {
  /** The tracking number of the text the callback names: only its owner may sign it. */
  const numberOf = async (_: unknown, ctx: { query: Record<string, unknown> }) => {
    const text = await c.textMessages.findOne({ _id: String(ctx.query.text ?? ''), direction: 'outbound' }, { projection: { conversationId: 1 } });
    return (text && (await c.conversations.findOne({ _id: text.conversationId }, { projection: { trackingNumber: 1 } }))?.trackingNumber) ?? null;
  };
  return {
    routes(router, { guard }) {
      router.post('/text-status', ...guard(numberOf), async (ctx) => {
        const p = params(ctx);
        const text = await sender.statusOf(String(ctx.query.text ?? ''), p.MessageStatus ?? p.SmsStatus ?? '', p.ErrorCode ?? null);
        if (text) await statusChanged(text);
        xml(ctx, new twilio.twiml.MessagingResponse());
      });
    },
  };
}
