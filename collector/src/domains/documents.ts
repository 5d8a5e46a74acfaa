// Domains (settings, keys, pools) and their tracking numbers: the shapes and indexes of their documents (house/all-collections.ts gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { NumberAtCarrier } from '../carriers/documents.ts';
import type { DisplayMode, TimetableEntry, WEEK_DAYS } from '@ringtrail/shared';
import type { RecordingSettings } from './recording-settings.ts';
import type { KeyPhrase, TranscriptionSettings } from './transcription-settings.ts';
import type { FormTrackingSettings } from './form-tracking.ts';
import type { IndexPlan } from '../db/index-plan.ts';
import type { LeadRule } from './lead-rule.ts';
import type { AnalysisSettings } from '../analysis/settings.ts';

export type PoolUsage = 'online' | 'offline';

export interface PoolConfig {
  type: number;
  usage: PoolUsage;
  /** > 0: a shared pool, one number serves many visitors, each with a code of this many digits. */
  codeDigits: number;
  /** Offline surtax pools: the cost group `assign` may ask for. */
  costGroup?: string;
  /** Online pools: the number the browser doors show when every number is held (reports/overflow). */
  overflowNumber?: string;
}

/** A domain's texting settings (texting/settings.ts reads and checks them). */
export interface TextingSettings {
  /** Texted to whoever texts HELP; null: the default, naming the business. */
  helpText: string | null;
  /** Ours (issue 81): the business's name as texts say it (HELP's answer); absent or null: the account's name. */
  businessName?: string | null;
  /** Replies a member picks instead of typing; `{firstName}` becomes the person's first name where known. */
  savedReplies: { name: string; body: string }[];
  /** Ours (issue 80): text back a missed caller; absent: off. */
  textBack?: TextBackSettings;
}

/** Text back a missed caller (texting/text-back.ts): the text, and when it may go (null: any hour),
 * as a call flow's schedule step writes opening hours. */
export interface TextBackSettings {
  enabled: boolean;
  message: string;
  hours: { week: Record<(typeof WEEK_DAYS)[number], { from: string; to: string }[]>; holidays: { from: string; to?: string; name?: string }[] } | null;
}

export interface DomainDoc {
  _id: string;
  name: string;
  accountId: string;
  apiKeyHash?: string;
  dataApiKeyHash?: string;
  offlineApiKeyHash?: string;
  offlineApiEnabled: boolean;
  customerKeyHash?: string;
  publicKeyHash?: string;
  /** The public key in clear as well: it is published in every page of the site, and the back end
   * shows the script tag that carries it. */
  publicKey?: string;
  /** Ours (browser/consent-keys.ts): the secret of the per-visit keys that a consent change needs;
   * made at its first use, never shown. */
  consentSecret?: string;
  /** Origins (scheme, host, port) whose pages may call the browser doors with the public key. */
  allowedOrigins: string[];
  /** The site's real numbers, normalized digits: the only ones the browser doors map. */
  sitePhones: string[];
  /** The tracker's display mode when its script tag names none. */
  displayMode: DisplayMode;
  /** The tracker's anti-flicker timeout (ms) when its script tag names none. */
  antiFlickerMs: number;
  /** Seconds an assignment lasts when the request says `expiration=-1`. */
  defaultExpiration: number;
  timeZone: string;
  /** Ours: where the domain's numbers are read (domains/phone-numbers.ts); absent: FR, the spec's. */
  country?: string;
  currency: string;
  callerPrivacy: string;
  orderStatuses: { name: string; isSale: boolean }[];
  /** GA4 Measurement Protocol: the purchase event of an order's first sale goes there when both are set. */
  ga4MeasurementId?: string;
  ga4ApiSecret?: string;
  /** In fixture order: the first online pool is the default when a request names no type. */
  pools: PoolConfig[];
  /** Numbers one client address may hold at once (ours); 0: no limit. Absent: the default (settings.ts). */
  numbersPerAddress?: number;
  /** Ours (telephony/redirects.ts), absent in domains made before them: the defaults of settings.ts. */
  redirectPhone?: string | null;
  redirect?: { enabled: boolean; timetable: TimetableEntry[] };
  redirectAfterSeconds?: number;
  whisper?: boolean;
  /** Ours (telephony/leads.ts): when a call is a lead; absent: the default rule. */
  leadRule?: LeadRule;
  /** Ours (recording-settings.ts), absent in domains made before them: off, kept 365 days. */
  recording?: RecordingSettings;
  /** Ours (transcription-settings.ts), absent in domains made before them: off, no key phrases. */
  transcription?: TranscriptionSettings;
  keyPhrases?: KeyPhrase[];
  /** Ours (analysis/settings.ts), absent: off. */
  analysis?: AnalysisSettings;
  /** Ours (form-tracking.ts), absent in domains made before it: off. */
  formTracking?: FormTrackingSettings;
  /** Ours (texting/, issue 68): the answer to HELP and the saved replies; absent: the default answer, none. */
  texting?: TextingSettings;
  recordingRetentionDays?: number;
  /** The last origins the browser doors refused (browser/refused-origins.ts). */
  refusedOrigins?: { origin: string; count: number; firstAt: Date; lastAt: Date }[];
  /** Ours: the version of the report counters' rules the domain's calls were counted by
   * (house/migrations.ts counts them again when the rules change); absent: 1. */
  callCountsVersion?: number;
  /** Ours: set once the domain's calls' data API entries say whether each has a stored recording
   * (house/migrations.ts writes those recorded before again). */
  recordingLinksVersion?: number;
  /** 1: the data API's pages hold calls received only (house/migrations.ts, issue 80). */
  receivedPagesVersion?: number;
  /** Ours: set once the domain's calls have their callers' entries (data/caller-calls.ts), its past
   * callers are claimed (telephony/first-calls.ts) and its people have their entries
   * (people/person-contacts.ts), by house/migrations.ts. */
  contactEntriesVersion?: number;
}

export interface TrackingNumberDoc {
  _id: string; // digits; a number belongs to one pool of one domain
  domainId: string;
  type: number;
  usage: PoolUsage;
  codeDigits: number;
  costGroup?: string;
  /** Offline numbers: when the number was last released, for `/list`'s `last_update`. */
  releasedAt?: Date;
  /** A pool's overflow number: never claimed, shown when the pool is exhausted. */
  overflow?: boolean;
  /** Ours (carriers/carrier-numbers.ts): the number at the account's carrier, when imported or bought through it. */
  carrier?: NumberAtCarrier;
}

/** The indexes of these collections: every query of a request's path goes through one. */
export const domainIndexes: IndexPlan = {
  // A request's key finds its domain. Not unique: a domain may lack a key.
  domains: [[{ apiKeyHash: 1 }], [{ publicKeyHash: 1 }], [{ offlineApiKeyHash: 1 }], [{ dataApiKeyHash: 1 }], [{ customerKeyHash: 1 }]],
  // A shared pool's numbers.
  trackingNumbers: [[{ domainId: 1, usage: 1, type: 1 }]],
};

/** The domains family's collections, as its services receive them. */
export interface DomainCollections {
  domains: Collection<DomainDoc>;
  trackingNumbers: Collection<TrackingNumberDoc>;
}

export function domainCollections(db: Db): DomainCollections {
  return collectionsNamed<DomainCollections>(db, { domains: 'domains', trackingNumbers: 'tracking_numbers' });
}
