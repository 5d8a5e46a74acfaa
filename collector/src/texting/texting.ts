// The texting family put together (issue 68): the opt-outs, the sender, the inbox that takes each
// text the telephony service records, and Twilio's status callbacks of the texts sent.
import type { CallAlerts } from '../alerts/call-alerts.ts';
import type { Carrier } from '../carriers/carrier.ts';
import type { DiallingPolicies } from '../dialling/policies.ts';
import type { timelineOf } from '../people/timeline.ts';
import { Conversations } from './conversations.ts';
import { countryOf } from '../domains/phone-numbers.ts';
import type { Logger } from '../logger.ts';
import type { SmsDoc } from '../telephony/documents.ts';
import type { TextCameFrom } from '../telephony/service.ts';
import type { TextingCollections } from './documents.ts';
import { TextInbox, type Received } from './inbox.ts';
import { OptOuts } from './opt-outs.ts';
import { TextSender, type TextCounted } from './sender.ts';
import { helpTextOf } from './settings.ts';
import { twilioTextStatus } from './twilio-text-status.ts';
import { TextPush } from './text-push.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';

export interface TextingNeeds {
  /** The texter's person (people.join by phone). */
  personOf: (domainId: string, phone: string, at: Date) => Promise<number | null>;
  carrierOf: (accountId: string) => Promise<Carrier | null>;
  publicUrl: string;
  counted?: TextCounted;
  /** The alert mails (absent without SMTP_URL): a new text raises `newText`. */
  alerts?: CallAlerts | null;
  /** Told of each text received, once (rules, pushes). */
  received?: (received: Received) => Promise<void>;
  /** Where the account's texts may go, and how many an hour (dialling/). */
  dialling?: DiallingPolicies;
}

export function wireTexting(c: TextingCollections & Parameters<typeof timelineOf>[0] & TeamCollections & WebhookCollections, needs: TextingNeeds, log: Logger) {
  const counted = needs.counted ?? (() => {});
  const optOuts = new OptOuts(c);
  const pushes = new TextPush(c);
  const domainOf = (domainId: string) => c.domains.findOne({ _id: domainId });
  const sender = new TextSender(c, optOuts, needs.carrierOf, `${needs.publicUrl}/telephony/twilio/text-status`, counted, async (conversation, text) => {
    const domain = await domainOf(conversation.domainId);
    if (domain) await pushes.text(domain, conversation, text);
  }, needs.dialling ?? null);
  const inbox = new TextInbox(c, optOuts, needs.personOf);
  /** A text the telephony service recorded: into its conversation (an anonymous one cannot be answered). */
  const onText = async (sms: SmsDoc, cameFrom: TextCameFrom) => {
    if (!sms.caller) return;
    const domain = await c.domains.findOne({ _id: sms.domainId });
    if (!domain) return;
    const received = await inbox.received({ smsId: sms._id, domainId: sms.domainId, accountId: domain.accountId, country: countryOf(domain), trackingNumber: sms.trackingNumber, caller: sms.caller, body: Array.isArray(sms.message) ? sms.message.join('') : sms.message, at: sms.sentAt, ...(sms.media ? { media: sms.media } : {}), ...cameFrom });
    if (!received) return;
    counted('inbound', 'received');
    const { conversation, message } = received;
    // HELP is answered even to a number that opted out; a failure never loses the text received.
    if (received.keyword === 'help') await sender.send(conversation, helpTextOf(domain, (await c.accounts.findOne({ _id: domain.accountId }))?.name ?? domain.name), 'auto', { help: true }).catch((err: Error) => log.warn({ err, domain: domain.name }, 'the answer to HELP was not sent'));
    await needs.alerts?.textReceived(domain, { id: message._id, conversationId: conversation._id, personId: conversation.personId, at: message.at, from: sms.caller, trackingNumber: sms.trackingNumber, body: message.body ?? '' });
    await pushes.text(domain, conversation, message);
    await needs.received?.(received);
  };
  return { optOuts, sender, inbox, onText, conversations: new Conversations(c, optOuts), twilioCallbacks: twilioTextStatus(c, sender, async (text) => {
      const domain = await domainOf(text.domainId);
      if (domain) await pushes.status(domain, text);
    }) };
}

export type Texting = ReturnType<typeof wireTexting>;
