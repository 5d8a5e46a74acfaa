// What goes out (issue 68): a member's reply from the tracking number the person wrote to, through
// the account's carrier (Twilio's Messages API, carriers/), at most MAX_TEXT_LENGTH characters, never
// to a number that opted out (but the answer to its HELP, which the carriers require); each text
// kept `queued` before it is handed over, then moved on by the carrier's signed status callbacks
// (`sent`, `delivered`, `undelivered`, `failed` with the carrier's error in words), never backwards.
import { randomUUID } from 'node:crypto';
import { CarrierError, type Carrier } from '../carriers/carrier.ts';
import type { DiallingPolicies } from '../dialling/policies.ts';
import { e164Of } from '../domains/phone-numbers.ts';
import type { ConversationDoc, TextingCollections, TextMessageDoc, TextStatus } from './documents.ts';
import { previewNewest } from './inbox.ts';
import type { OptOuts } from './opt-outs.ts';
import { segmentsOf } from './segments.ts';

export class TextRefused extends Error {}

/** The sender of a missed caller's text back (issue 80), as the inbox shows it. */
export const TEXT_BACK_BY = 'text-back';
/** Who sends a text RingTrail sends itself: the answer to HELP, a text back. */
const isAutomatic = (by: string) => by === 'auto' || by === TEXT_BACK_BY;

/** Told of each text sent or received, and how it ended (the metric). */
export type TextCounted = (direction: 'inbound' | 'outbound', result: string) => void;

/** Twilio's MessageStatus as ours. */
const STATUS: Record<string, TextStatus> = { accepted: 'queued', scheduled: 'queued', queued: 'queued', sending: 'queued', sent: 'sent', delivered: 'delivered', read: 'delivered', undelivered: 'undelivered', failed: 'failed', canceled: 'failed' };
/** Statuses a later one may replace: never backwards. */
const BEFORE: Record<TextStatus, TextStatus[]> = { received: [], queued: [], sent: ['queued'], delivered: ['queued', 'sent'], undelivered: ['queued', 'sent'], failed: ['queued', 'sent'] };
/** Twilio's delivery errors in words (https://www.twilio.com/docs/api/errors). */
const DELIVERY_ERRORS: Record<string, string> = {
  '30003': 'the phone is unreachable (off, or out of coverage)',
  '30004': 'the message was blocked by the recipient or their carrier',
  '30005': 'the number is unknown or no longer in service',
  '30006': 'the number is a landline or its carrier cannot take texts',
  '30007': 'the carrier filtered the message (spam rules)',
  '30008': 'the carrier gave no reason',
  '21610': 'the recipient opted out with STOP at the carrier',
  // US texting from local numbers (A2P 10DLC, issue 81, docs/texting.md).
  '30034': "the tracking number is not registered for US texting (A2P 10DLC): US carriers block texts from a local number outside an approved campaign. Register a brand and a campaign in Settings, Texting, US texting registration",
  '30032': 'the toll-free number is not verified for texting: verify it in the Twilio Console (Phone Numbers, Regulatory Compliance, Toll-Free Verifications)',
};

export class TextSender {
  constructor(
    private readonly c: TextingCollections,
    private readonly optOuts: OptOuts,
    private readonly carrierOf: (accountId: string) => Promise<Carrier | null>,
    /** Where the carrier posts each text's status (the public URL's /telephony/twilio/text-status). */
    private readonly statusUrl: string,
    private readonly counted: TextCounted = () => {},
    /** Told of each text handed to the carrier (the `text` push). */
    private readonly sent: (conversation: ConversationDoc, text: TextMessageDoc) => Promise<void> = async () => {},
    /** The account's dialling rules and hourly limits (issue 79): absent, none (tests of the sender alone). */
    private readonly dialling: Pick<DiallingPolicies, 'sendText'> | null = null,
  ) {}

  /** Sends `body` in the conversation; a TextRefused (opted out, no carrier, erased), a DiallingRefused
   * (a number the account may not text, a limit reached) or the carrier's
   * CarrierError (a landline, a number that cannot take texts) says why nothing went. */
  async send(conversation: ConversationDoc, body: string, by: string, { help = false } = {}, now = new Date()): Promise<TextMessageDoc> {
    if (!conversation.phone) throw new TextRefused('This person was erased: their number is gone');
    const opted = help ? null : await this.optOuts.of(conversation.domainId, conversation.phone);
    if (opted) throw new TextRefused(`This number opted out: they texted ${opted.word} on ${opted.at.toISOString().slice(0, 10)}. No text is sent to them until they text START`);
    const carrier = await this.carrierOf(conversation.accountId);
    if (!carrier) throw new TextRefused('No carrier account is connected: connect Twilio (Account, Carrier) to text from the tracking numbers');
    // On the owner's bill: the number passes the dialling rules, the text the hour's limits (the HELP answer the account's).
    await this.dialling?.sendText(conversation.accountId, isAutomatic(by) ? null : by, [{ field: 'to', number: conversation.phone }]);
    const message: TextMessageDoc = { _id: `out:${randomUUID()}`, conversationId: conversation._id, domainId: conversation.domainId, direction: 'outbound', body, at: now, sid: null, status: 'queued', error: null, segments: segmentsOf(body).segments, by, statusAt: now };
    await this.c.textMessages.insertOne(message);
    await this.c.conversations.updateOne({ _id: conversation._id }, { $max: { lastAt: now } });
    await previewNewest(this.c, conversation._id, now, body, 'outbound');
    try {
      const sent = await carrier.sendText({ from: e164Of(conversation.trackingNumber), to: e164Of(conversation.phone), body, statusCallback: `${this.statusUrl}?text=${encodeURIComponent(message._id)}` });
      const status = STATUS[sent.status] ?? 'queued';
      await this.c.textMessages.updateOne({ _id: message._id }, { $set: { sid: sent.sid } });
      if (status !== 'queued') await this.moved(message._id, status, null, now);
      this.counted('outbound', 'queued');
      const stored = (await this.c.textMessages.findOne({ _id: message._id }))!;
      await this.sent(conversation, stored);
      return stored;
    } catch (err) {
      if (err instanceof CarrierError) {
        await this.c.textMessages.updateOne({ _id: message._id }, { $set: { status: 'failed', error: err.message, statusAt: new Date() } });
        this.counted('outbound', 'failed');
      }
      throw err;
    }
  }

  /** A status callback of text `textId`: its new status (never backwards) and error in words; the
   * text as it is now when the status moved it, else null. */
  async statusOf(textId: string, twilioStatus: string, errorCode: string | null, now = new Date()): Promise<TextMessageDoc | null> {
    const status = STATUS[twilioStatus];
    const error = errorCode && errorCode !== '0' ? `${DELIVERY_ERRORS[errorCode] ?? 'the carrier refused it'} (Twilio error ${errorCode})` : null;
    if (!status || !(await this.moved(textId, status, error, now))) return null;
    if (status !== 'queued') this.counted('outbound', status);
    return this.c.textMessages.findOne({ _id: textId, direction: 'outbound' });
  }

  private async moved(textId: string, status: TextStatus, error: string | null, now: Date): Promise<boolean> {
    return (await this.c.textMessages.updateOne({ _id: textId, status: { $in: BEFORE[status] } }, { $set: { status, error, statusAt: now } })).modifiedCount === 1;
  }
}
