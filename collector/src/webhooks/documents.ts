// The outbox of pushes and the log of delivery attempts: the shapes and indexes of their documents (house/all-collections.ts gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';

/** Pushes are sent as the spec's form field `realtimeData`. */
export const WEBHOOK_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** A message as handed to the outbox (webhooks/outbox.ts); a fixed `id` makes its enqueue idempotent. */
export type OutboxMessage = Pick<OutboxDoc, 'accountId' | 'stream' | 'kind' | 'label' | 'url' | 'contentType' | 'body' | 'signed' | 'personIds' | 'about'> & { id?: string };

/** Ours: the calls and forms a message is for (a mail of alerts is for several), so that a message
 * being retried is shown, with its last error, where each of them is shown (webhooks/retrying.ts). */
export interface OutboxAbout {
  callIds?: number[];
  formIds?: number[];
}

/** One message waiting to go out: a webhook push, an analytics event, a mail (mail/message.ts), or a
 * recording to fetch from the carrier (recordings/fetcher.ts). Deleted once delivered or given up. */
export interface OutboxDoc {
  _id: string; // the delivery id (webhook-id)
  accountId: string;
  /** Messages of one stream (`call:<id>`, `order:<id>`) go out one at a time, oldest first. */
  stream: string;
  kind: 'webhook' | 'analytics' | 'mail' | 'recording' | 'transcript' | 'rules' | 'ads' | 'analysis' | 'crm' | 'text';
  label: string; // `view`, `cart`, `order`, `purchase`; a mail's kind (`missed-call`)
  url: string;
  contentType: string;
  body: string;
  /** Webhooks only: signed with the account's secret at each attempt. */
  signed: boolean;
  /** Ours: the people (people/) a mail speaks of, whose erase erases it, here and in the log. */
  personIds?: number[];
  about?: OutboxAbout;
  createdAt: Date;
  /** Sub-millisecond enqueue time: the order of a stream's messages. */
  enqueuedAt: number;
  attempts: number;
  firstAttemptAt?: Date;
  /** The error of its last attempt, while it is retried: said where its call or form is shown. */
  lastError?: string;
  nextAttemptAt: Date;
  /** The worker attempting it now, until `claimedUntil` (a worker that dies loses its claim then). */
  claimedBy: string | null;
  claimedUntil: Date;
}

/** What the account's delivery logs show (Account, the agent API): its pushes and analytics events,
 * never its people's mails nor the recordings fetched for it. */
export const LOGGED_KINDS: OutboxDoc['kind'][] = ['webhook', 'analytics'];

/** One delivery attempt, kept for the delivery log. */
export interface DeliveryLogDoc {
  _id: string; // `<messageId>#<attempt>`
  messageId: string;
  accountId: string;
  stream: string;
  kind: OutboxDoc['kind'];
  label: string;
  attempt: number;
  at: Date;
  httpStatus: number | null;
  error: string | null;
  outcome: 'delivered' | 'retrying' | 'abandoned';
  /** What was sent, so a receiver can replay it; of a mail, only its recipient and subject (its
   * links carry tokens, which are never kept readable once it is sent). */
  body: string;
  /** A mail's people (OutboxDoc.personIds). */
  personIds?: number[];
}

/** The indexes of these collections: every query of a request's path goes through one. */
export const webhookIndexes: IndexPlan = {
  // The messages retried for a page of calls or forms (webhooks/retrying.ts).
  outbox: [[{ enqueuedAt: 1 }], [{ 'about.callIds': 1 }, { sparse: true }], [{ 'about.formIds': 1 }, { sparse: true }]],
  deliveryLog: [[{ accountId: 1, at: -1 }], [{ personIds: 1 }, { sparse: true }]],
};

/** The webhooks family's collections, as its services receive them. */
export interface WebhookCollections {
  outbox: Collection<OutboxDoc>;
  deliveryLog: Collection<DeliveryLogDoc>;
}

export function webhookCollections(db: Db): WebhookCollections {
  return collectionsNamed<WebhookCollections>(db, { outbox: 'outbox', deliveryLog: 'delivery_log' });
}
