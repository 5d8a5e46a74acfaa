// Text back a missed caller (issue 80; CallRail's and CallTrackingMetrics' "missed call text back"):
// a domain that opts in (`texting.textBack`) texts a caller nobody answered (missed, or abandoned in
// a flow) from the tracking number they called, in the inbox thread of that number. Only to a mobile
// number (a landline cannot take it), only while the domain's texting hours say open (none set: any
// hour), once per caller and day, never to a number that opted out; the account's dialling rules and
// hourly limits apply as to any text. The call's write queues it (an outbox job, so no call write waits
// on the carrier); the job sends it, and keeps why when it could not.
import { createHash } from 'node:crypto';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { CarrierError } from '../carriers/carrier.ts';
import { DiallingRefused } from '../dialling/refused.ts';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import { e164Of } from '../domains/phone-numbers.ts';
import { localTime } from '../domains/time-zone.ts';
import { isDuplicateKey } from '../db/writes.ts';
import { scheduleAt } from '../flows/schedule.ts';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import { endedAs } from '../telephony/outcome.ts';
import type { OutboxDoc } from '../webhooks/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { SendResult } from '../webhooks/send.ts';
import type { ConversationDoc, TextingCollections } from './documents.ts';
import { conversationId } from './inbox.ts';
import { TEXT_BACK_BY, TextRefused, type TextSender } from './sender.ts';
import { textBackOf } from './settings.ts';

const DONE: SendResult = { delivered: true, httpStatus: null, error: null, permanent: false };

/** Whether the number is a mobile's (or one its country does not tell from a landline, as in the US). */
export function isMobile(canonical: string): boolean {
  const type = parsePhoneNumberFromString(e164Of(canonical))?.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
}

/** The call just ended unanswered (missed, or abandoned in a flow), from a mobile that can be texted. */
export function textBackDue(before: CallDoc | null, after: CallDoc): boolean {
  const ended = endedAs(after);
  if (ended !== 'missed' && ended !== 'abandoned') return false;
  if (before && endedAs(before) === ended) return false;
  return after.direction !== 'outbound' && Boolean(after.caller) && after.caller !== 'anonymous' && isMobile(after.caller!);
}

/** The domain texts back now: turned on, and within its texting hours where it has some. */
function textsBackAt(domain: Pick<DomainDoc, 'texting' | 'timeZone'>, now: Date): boolean {
  const settings = textBackOf(domain);
  return settings.enabled && (!settings.hours || scheduleAt(settings.hours, now, domain.timeZone).open);
}

export const textBackId = (domain: Pick<DomainDoc, '_id' | 'timeZone'>, caller: string, at: Date) => `${domain._id}|${createHash('sha256').update(caller).digest('hex')}|${localTime(at, domain.timeZone).day}`;

/** The call reaction: queues the text back of a call that just ended unanswered. */
export class TextBackQueue {
  constructor(
    private readonly c: TextingCollections & DomainCollections,
    private readonly outbox: Outbox,
  ) {}

  async callChanged(before: CallDoc | null, after: CallDoc, now = new Date()): Promise<void> {
    // Most calls stop here, before any read.
    if (!textBackDue(before, after)) return;
    const domain = await this.c.domains.findOne({ _id: after.domainId }, { projection: { texting: 1, timeZone: 1, accountId: 1 } });
    if (!domain || !textsBackAt(domain, now)) return;
    const _id = textBackId(domain, after.caller!, now);
    try {
      // Claimed first: a caller's second missed call today, or this one's ending reported twice at once, texts nobody again.
      await this.c.textBacks.insertOne({ _id, domainId: domain._id, callId: after._id, at: now, state: 'queued', textId: null, error: null });
    } catch (err) {
      if (isDuplicateKey(err)) return;
      throw err;
    }
    await this.outbox.enqueue({ id: `text_back_${_id}`, accountId: domain.accountId, stream: `text-back:${_id}`, kind: 'text', label: 'text-back', url: 'text:back', contentType: 'application/json', body: JSON.stringify({ textBack: _id }), signed: false, about: { callIds: [after._id] } });
  }
}

/** The outbox job: the text sent in the caller's thread with the tracking number. */
export class TextBackSender {
  constructor(
    private readonly c: TextingCollections & DomainCollections & TelephonyCollections,
    private readonly sender: Pick<TextSender, 'send'>,
  ) {}

  async fetch(m: OutboxDoc): Promise<SendResult> {
    const { textBack } = JSON.parse(m.body) as { textBack: string };
    const doc = await this.c.textBacks.findOne({ _id: textBack, state: 'queued' });
    const call = doc && (await this.c.calls.findOne({ _id: doc.callId }));
    const domain = call && (await this.c.domains.findOne({ _id: call.domainId }));
    // Erased since (no number), or the domain gone: nobody to text.
    if (!doc || !call?.caller || !domain) return doc ? this.refused(doc._id, 'the caller was erased') : DONE;
    const conversation = await this.threadOf(domain, call);
    try {
      const text = await this.sender.send(conversation, textBackOf(domain).message, TEXT_BACK_BY);
      await this.c.textBacks.updateOne({ _id: doc._id }, { $set: { state: 'sent', textId: text._id } });
      return DONE;
    } catch (err) {
      if (err instanceof TextRefused || err instanceof DiallingRefused || err instanceof CarrierError) return this.refused(doc._id, err.message);
      throw err;
    }
  }

  private async refused(_id: string, error: string): Promise<SendResult> {
    await this.c.textBacks.updateOne({ _id }, { $set: { state: 'refused', error } });
    return DONE;
  }

  /** The caller's thread with the tracking number they called: made when they never texted it, read (nothing unread). */
  private async threadOf(domain: DomainDoc, call: CallDoc): Promise<ConversationDoc> {
    const _id = conversationId(domain._id, call.caller!, call.trackingNumber);
    const fresh = { domainId: domain._id, accountId: domain.accountId, phone: call.caller, trackingNumber: call.trackingNumber, personId: call.personId ?? null, lastAt: call.startedAt, lastText: '', lastDirection: 'outbound' as const, unread: 0, assignee: null, createdAt: new Date() };
    try {
      await this.c.conversations.updateOne({ _id }, { $setOnInsert: fresh }, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    return (await this.c.conversations.findOne({ _id }))!;
  }
}

/** The job given up after its retries (the carrier unreachable): kept so. */
export async function textBackGivenUp(c: TextingCollections, m: Pick<OutboxDoc, 'body'>, error: string): Promise<void> {
  const { textBack } = JSON.parse(m.body) as { textBack: string };
  await c.textBacks.updateOne({ _id: textBack, state: 'queued' }, { $set: { state: 'refused', error } });
}
