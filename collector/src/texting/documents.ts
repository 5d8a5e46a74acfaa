// The texting family (issue 68): a domain's conversations (one per texter and tracking number),
// their texts (received and sent) and the numbers that opted out (house/all-collections.ts gathers
// every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';
import type { Touch } from '../tracking/touches.ts';
import type { TextMedia } from '../telephony/documents.ts';

/** One texter and one tracking number of a domain. `_id`: `cv_` and the first 20 hexadecimal digits of
 * the SHA-256 of `<domainId>|<number>|<trackingNumber>`: one conversation each, however many texts race. */
export interface ConversationDoc {
  _id: string;
  domainId: string;
  accountId: string;
  /** The texter's number (canonical, as callers are stored); null once their person was erased. */
  phone: string | null;
  trackingNumber: string;
  /** Their person (people/): the calls and forms interleaved in the thread. */
  personId: number | null;
  /** The newest text, either way: the list's order and its preview. */
  lastAt: Date;
  lastText: string;
  lastDirection: 'inbound' | 'outbound';
  /** Texts received since someone last read the thread. */
  unread: number;
  /** The member who answers it; null: nobody yet. */
  assignee: string | null;
  createdAt: Date;
  /** Ours (issue 81): the visit that led to its first text (the visit holding the number then); null: none. */
  visitId?: number | null;
  /** Ours (issue 81): the team's notes on it, oldest first (the latest MAX_NOTES); gone with an erase. */
  notes?: ConversationNote[];
}

/** A member's note on a conversation, never texted. */
export interface ConversationNote {
  id: string;
  at: Date;
  by: string;
  text: string;
}

export type TextStatus = 'received' | 'queued' | 'sent' | 'delivered' | 'failed' | 'undelivered';

/** A text of a conversation. `_id`: `in:<smsId>` received, `out:<random>` sent. */
export interface TextMessageDoc {
  _id: string;
  conversationId: string;
  domainId: string;
  direction: 'inbound' | 'outbound';
  /** Null once the person was erased. */
  body: string | null;
  /** Ours (issue 81): an MMS's pictures and files at the carrier; gone with an erase. */
  media?: TextMedia[];
  at: Date;
  /** Received: the spec's SMS record (`sms`), and who led to it (as to a call to that number then:
   * the rules' source conditions). */
  smsId?: number;
  source?: string | null;
  keyword?: string | null;
  lastTouch?: Touch | null;
  /** Sent: the carrier's id (Twilio's MessageSid), its status as its callbacks say, and its error in words. */
  sid?: string | null;
  status: TextStatus;
  error?: string | null;
  segments?: number;
  /** Sent by a member, or by RingTrail (`auto`: the HELP answer). */
  by?: string;
  statusAt?: Date;
}

/** A number that texted STOP to a domain: never texted again until it texts START. `_id`:
 * `<domainId>|<sha256 of the number>`, so that an erase keeps the opt-out as a hash only. */
export interface OptOutDoc {
  _id: string;
  domainId: string;
  /** The number, until its person is erased. */
  phone: string | null;
  at: Date;
  /** The word that opted it out (STOP, QUIT…). */
  word: string;
}

/** A missed caller texted back (issue 80, texting/text-back.ts), once per caller and day. `_id`:
 * `<domainId>|<sha256 of the number>|<day in the domain's time zone>`, so two endings at once text once
 * and an erase leaves no number here. */
export interface TextBackDoc {
  _id: string;
  domainId: string;
  callId: number;
  at: Date;
  /** `queued` until sent; `sent` with its text; `refused` with why (opted out since, a limit, the carrier). */
  state: 'queued' | 'sent' | 'refused';
  textId: string | null;
  error: string | null;
}

export interface TextingCollections {
  conversations: Collection<ConversationDoc>;
  textMessages: Collection<TextMessageDoc>;
  optOuts: Collection<OptOutDoc>;
  textBacks: Collection<TextBackDoc>;
}

export const textingIndexes: IndexPlan = {
  // One conversation per texter and tracking number; the inbox's list, newest first, by domain.
  conversations: [[{ domainId: 1, lastAt: -1 }], [{ domainId: 1, personId: 1 }]],
  // A thread in time order; a sent text by its carrier id (its status callbacks); a domain's newest
  // (a rule's preview).
  textMessages: [[{ conversationId: 1, at: 1 }], [{ sid: 1 }], [{ domainId: 1, at: -1, smsId: -1 }]],
  optOuts: [[{ domainId: 1, phone: 1 }]],
  // A call's text back (its page, the tests).
  textBacks: [[{ callId: 1 }]],
};

export function textingCollections(db: Db): TextingCollections {
  return collectionsNamed<TextingCollections>(db, { conversations: 'conversations', textMessages: 'text_messages', optOuts: 'opt_outs', textBacks: 'text_backs' });
}
