// Conversions sent to the ad platforms (ours, issue 56): a domain's connection to each platform (its
// ids, its credentials sealed with SECRETS_KEY) and each lead's conversion per platform, from queued
// to sent, rejected or not sent (and why): the shapes and indexes of their documents
// (house/all-collections.ts gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';
import type { AdsPlatform, ConversionState } from './names.ts';

export { ADS_PLATFORMS, CONVERSION_STATES, type AdsPlatform, type ConversionState } from './names.ts';

/** A domain's connection to one platform. `_id` = `<domainId>|<platform>`. */
export interface AdsConnectionDoc {
  _id: string;
  domainId: string;
  accountId: string;
  platform: AdsPlatform;
  /** The platform's ids (accounts, conversion action or name, dataset): shown. */
  settings: Record<string, string>;
  /** The credentials, JSON sealed (carriers/secrets.ts): never shown again. */
  secret: string;
  /** What the credentials are, in words (`service account rt@….iam.gserviceaccount.com`). */
  credentials: string;
  connectedAt: Date;
  by: string;
  /** The platform refused the credentials at the last send (expired, revoked): leads wait meanwhile. */
  broken?: { at: Date; error: string } | null;
}

/** One lead's conversion for one platform. `_id` = `<platform>|call:<id>` or `<platform>|form:<id>`:
 * a lead is queued once per platform, however often it becomes one. */
export interface AdsConversionDoc {
  _id: string;
  domainId: string;
  accountId: string;
  platform: AdsPlatform;
  kind: 'call' | 'form';
  itemId: number;
  state: ConversionState;
  /** Why it was rejected (the platform's words), not sent (no click id, no consent, too old), or not
   * retracted (Meta cannot; the platform refused). */
  reason?: string;
  /** When it reached its state. */
  at: Date;
  queuedAt: Date;
  /** The outbox message that carries it, once taken into a request: a retried message sends the same leads again (the platform's deduplication id keeps them once). */
  batch: string | null;
  /** It stopped being a lead while its request was on its way: retracted once sent. */
  unlead?: true;
  /** Its value changed while its request was on its way: restated once sent. */
  restate?: true;
  /** It waits for a moment that can still value it (its transcript, which rules at
   * `transcript-ready` value), until then at most (ads-queue.ts). */
  holdUntil?: Date;
  /** Google's id of the request that took it, until Google says what it made of it (`accepted`). */
  requestId?: string;
}

export const adsIndexes: IndexPlan = {
  // A domain's connections, read as each of its leads is made.
  adsConnections: [[{ domainId: 1 }]],
  // A domain's and platform's queued leads, oldest first, for the next request.
  // The Conversions screen: newest first, by platform or state.
  adsConversions: [[{ domainId: 1, platform: 1, state: 1, queuedAt: 1 }], [{ batch: 1 }], [{ requestId: 1 }, { sparse: true }], [{ domainId: 1, at: -1 }], [{ domainId: 1, platform: 1, at: -1 }], [{ domainId: 1, state: 1, at: -1 }]],
};

/** The ads family's collections, as its services receive them. */
export interface AdsCollections {
  adsConnections: Collection<AdsConnectionDoc>;
  adsConversions: Collection<AdsConversionDoc>;
}

export function adsCollections(db: Db): AdsCollections {
  return collectionsNamed<AdsCollections>(db, { adsConnections: 'ads_connections', adsConversions: 'ads_conversions' });
}
