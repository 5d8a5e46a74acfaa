// What comes in (issue 68): each text a domain's tracking number receives (the spec's SMS, through
// /telephony/sms or Twilio's messaging webhook) opens or continues the conversation of its texter
// and that number, counted unread until someone reads the thread; its texter joins their person
// (people/), whose calls and forms the thread interleaves. The texter's keywords act at once: STOP
// (and its kin) opts them out, START opts them back in; HELP is said back (`keyword`) for the
// wiring to answer with the domain's help text (texting.ts).
import { createHash } from 'node:crypto';
import { isDuplicateKey } from '../db/writes.ts';
import type { ConversationDoc, TextingCollections, TextMessageDoc } from './documents.ts';
import { keywordOf, type Keyword } from './keywords.ts';
import type { OptOuts } from './opt-outs.ts';
import type { TextCameFrom } from '../telephony/service.ts';
import type { TextMedia } from '../telephony/documents.ts';

/** A text as the spec's SMS record has it, and who led to it. */
export interface ReceivedText extends TextCameFrom {
  smsId: number;
  domainId: string;
  accountId: string;
  /** The domain's country: where French is written, ARRET opts out too. */
  country: string;
  trackingNumber: string;
  caller: string;
  body: string;
  at: Date;
  media?: TextMedia[];
}

/** What a received text did: its conversation, and the keyword it was. */
export interface Received {
  conversation: ConversationDoc;
  message: TextMessageDoc;
  keyword: Keyword | null;
}

export const conversationId = (domainId: string, phone: string, trackingNumber: string) => `cv_${createHash('sha256').update(`${domainId}|${phone}|${trackingNumber}`).digest('hex').slice(0, 20)}`;

/** The first characters of a text, for the list. */
export const preview = (text: string) => (text.length > 140 ? `${text.slice(0, 139)}…` : text);

/** The conversation's preview, when this text is its newest (texts may arrive out of order): after its `lastAt` moved. */
export async function previewNewest(c: TextingCollections, _id: string, at: Date, body: string, direction: 'inbound' | 'outbound'): Promise<void> {
  await c.conversations.updateOne({ _id, lastAt: at }, { $set: { lastText: preview(body), lastDirection: direction } });
}

export class TextInbox {
  constructor(
    private readonly c: TextingCollections,
    private readonly optOuts: OptOuts,
    /** The texter's person (people.join by phone); null: none kept. */
    private readonly personOf: (domainId: string, phone: string, at: Date) => Promise<number | null>,
  ) {}

  /** Null when this SMS was taken already (a report sent again). */
  async received(text: ReceivedText): Promise<Received | null> {
    const _id = conversationId(text.domainId, text.caller, text.trackingNumber);
    const said = keywordOf(text.body, text.country);
    const ledBy = await this.ledByVisit(_id, text, said);
    const message: TextMessageDoc = { _id: `in:${text.smsId}`, conversationId: _id, domainId: text.domainId, direction: 'inbound', body: text.body, at: text.at, smsId: text.smsId, status: 'received', ...ledBy, ...(text.media?.length ? { media: text.media } : {}) };
    try {
      await this.c.textMessages.insertOne(message);
    } catch (err) {
      if (isDuplicateKey(err)) return null;
      throw err;
    }
    const personId = await this.personOf(text.domainId, text.caller, text.at);
    const conversation = await this.touch(_id, text, personId, said === null);
    if (said?.keyword === 'opt-out') await this.optOuts.optOut(text.domainId, text.caller, said.word, text.at);
    if (said?.keyword === 'opt-in') await this.optOuts.optIn(text.domainId, text.caller);
    return { conversation, message, keyword: said?.keyword ?? null };
  }

  /** Who led to the text, kept only where a visit did (issue 81): a conversation's first text sent
   * while a visit held the number, and the later ones while that same visit holds it. A keyword
   * (STOP, HELP…) is no lead, and a text sent while another visit holds the number is not theirs. */
  private async ledByVisit(_id: string, text: ReceivedText, said: { keyword: Keyword } | null): Promise<Pick<TextMessageDoc, 'source' | 'keyword' | 'lastTouch'>> {
    const none = { source: null, keyword: null, lastTouch: null };
    if (said || text.source === null) return none;
    const known = await this.c.conversations.findOne({ _id }, { projection: { visitId: 1 } });
    const theirs = !known || (text.visitId !== null && known.visitId === text.visitId);
    return theirs ? { source: text.source, keyword: text.keyword, lastTouch: text.lastTouch } : none;
  }

  /** The conversation made or moved to this text: newest, one more unread. Two first texts at once
   * make one (its `_id` is theirs); the loser of the insert adds to it. */
  private async touch(_id: string, text: ReceivedText, personId: number | null, noKeyword: boolean): Promise<ConversationDoc> {
    const update = { $max: { lastAt: text.at }, $inc: { unread: 1 }, $set: { ...(personId !== null ? { personId } : {}), phone: text.caller } };
    // The visit that led to the first text, if it is no keyword: its later texts are that visit's too.
    const visitId = noKeyword ? text.visitId : null;
    const fresh = { domainId: text.domainId, accountId: text.accountId, trackingNumber: text.trackingNumber, assignee: null, createdAt: text.at, visitId, ...(personId === null ? { personId: null } : {}) };
    try {
      await this.c.conversations.updateOne({ _id }, { ...update, $setOnInsert: fresh }, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await this.c.conversations.updateOne({ _id }, update);
    }
    await previewNewest(this.c, _id, text.at, text.body || (text.media?.length ? '(picture)' : ''), 'inbound');
    return (await this.c.conversations.findOne({ _id }))!;
  }
}
