// Calls, SMS and blocked callers: the shapes and indexes of their documents (house/all-collections.ts gathers every family's).
import type { CallStatus, RedirectPlan, RouteReason } from '@ringtrail/shared';
import type { ObjectId, Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';
import type { Touch } from '../tracking/touches.ts';

/** Who led to a call: the visit that held the number, or the offline number's campaign. */
export interface CallAttribution {
  visitId: number | null;
  viewId: number | null;
  url: string | null;
  referrer: string | null;
  /** The attribution label: `<class>` or `<class>:<source name>` (`organic:google.com`), `offline` for an offline number. */
  source: string | null;
  keyword: string | null;
  gclid: string | null;
  /** Ours, like gclid: Microsoft Advertising's and Meta's click ids; absent on calls stored before them. */
  msclkid?: string | null;
  fbclid?: string | null;
  /** Ours (issue 56): Google's click ids of app and iOS web traffic, present only when the visit had them. */
  gbraid?: string;
  wbraid?: string;
  /** Ours (issue 56): the visit's pages denied ad storage (Google's consent mode): no identifier is sent to the ad platforms. Only when true. */
  adsDenied?: true;
  clientData: unknown;
  /** The visit's page URLs before the call, one per line. */
  callPath: string | null;
  offlineDescription: string | null;
  /** Ours (tracking/touches.ts): the visit that led to the call (its campaign and landing page), the
   * visitor's first visit of the 90 days before the call, and their latest visit that was not direct;
   * null when no visit led to the call, absent on calls stored before them. */
  lastTouch?: Touch | null;
  firstTouch?: Touch | null;
  lastNonDirect?: Touch | null;
}

/** Ours (recordings/): the call's recording, from the carrier's word that there is one to its
 * audio stored in GridFS, or why it could not be, or when it was deleted. */
export interface CallRecording {
  status: 'fetching' | 'stored' | 'failed' | 'deleted';
  /** The carrier's id of it (Twilio's RecordingSid), when it has one. */
  sid: string | null;
  /** Seconds, as the carrier says. */
  duration: number | null;
  channels: number | null;
  fileId?: ObjectId;
  size?: number;
  contentType?: string;
  storedAt?: Date;
  error?: string;
  deletedAt?: Date;
  /** Who deleted it: a member, or `retention` (the domain's recordingRetentionDays). */
  deletedBy?: string;
  /** When the carrier deleted its copy, once stored here (the domain's `recording.deleteAtCarrier`). */
  carrierDeletedAt?: Date;
}

/** Ours (transcripts/): the call's transcript, made from its stored recording. Its turns are in the
 * transcripts family's own collection; the call keeps what its lists and records show. */
export interface CallTranscript {
  status: 'ready' | 'failed' | 'deleted';
  /** The labels of the domain's key phrases heard, in the domain's order. */
  keyPhrases: string[];
  /** Ours (for rules/): the labels each speaker said; absent on transcripts made before it was kept. */
  heardBy?: { caller: string[]; agent: string[] };
  at: Date;
  /** Why there is none (`failed`). */
  error?: string;
}

/** The outcomes a language model judges in a call (analysis/), each yes, no or unknown; the caller's
 * sentiment. Here beside the call that keeps them, for the families that read them (rules, reports). */
export const ANALYSIS_OUTCOMES = ['appointmentBooked', 'quoteGiven', 'saleMade', 'existingCustomer', 'spam', 'followUpNeeded'] as const;
export const ANALYSIS_ANSWERS = ['yes', 'no', 'unknown'] as const;
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;

/** Ours (analysis/, issue 66): what the owner's language model read in the call's transcript: each
 * `yes` with its quote found in the transcript (and the turn), a `yes` it could not prove `unknown`
 * with why; or why there is none (`failed`). */
export interface CallAnalysis {
  status: 'ready' | 'failed';
  at: Date;
  model?: string;
  summary?: string;
  intent?: string;
  outcomes?: Record<string, AnalysisJudged>;
  followUp?: string;
  leadScore?: number;
  leadScoreReasons?: string[];
  sentiment?: (typeof SENTIMENTS)[number];
  /** The domain's questions as they were asked, each answered. */
  answers?: (AnalysisJudged & { question: string })[];
  error?: string;
}

export interface AnalysisJudged {
  answer: (typeof ANALYSIS_ANSWERS)[number];
  quote?: string;
  /** The turn its quote is in, and that turn's start (seconds into the recording). */
  turn?: number;
  start?: number;
  rejected?: string;
  /** A member corrected it: their word wins. */
  by?: string;
}

export interface CallDoc extends CallAttribution, Marks {
  _id: number;
  domainId: string;
  callRef: string;
  trackingNumber: string;
  code: string | null;
  /** Where the call was forwarded (the site's real number), or null. */
  destination: string | null;
  /** Stored whole; masked on output by the domain's callerPrivacy. Null: anonymous. */
  caller: string | null;
  startedAt: Date;
  /** Null while the call is ringing or going on (reported by a carrier's voice hook, outcome not known yet). */
  status: CallStatus | null;
  /** Ours: the outcome the carrier reported, whatever status the route imposed on `status` (a number
   * nobody held is NOTASSIGNED there, Appendix A; an expired one EXPIRED). What the back end shows,
   * the missed-call alert and the lead rule read (callOutcome); absent on calls stored before. */
  outcome?: CallStatus | null;
  duration: number;
  billingDuration: number;
  answerTime: number;
  triggerType: number;
  keypad: string | null;
  postcode: string | null;
  isRedirect: boolean;
  expiredRedirect: boolean;
  revenue: number;
  route: RouteReason;
  /** The status the route imposed whatever the outcome (NOTASSIGNED, EXPIRED), else null. */
  forcedStatus: CallStatus | null;
  receivedAt: Date;
  updatedAt: Date;
  /** The call-center agent who took the call (callStart or setAgentToCall); absent or null: none yet. */
  agent?: string | null;
  recording?: CallRecording;
  transcript?: CallTranscript;
  /** Revision, raised by every carrier report: a report's change applies only to the call it read. */
  rev: number;
  /** Visits that held the number in the reservation window before the call (telephony/call-match.ts);
   * null for offline numbers and calls stored before it was kept. */
  matchCandidates?: number | null;
  matchConfidence?: 'certain' | 'likely' | 'possible' | 'none' | null;
  /** Where the call goes if nobody answers, decided with its route (telephony/redirects.ts); absent: none. */
  redirect?: RedirectPlan | null;
  /** Ours: the caller never called the domain before (telephony/first-calls.ts), decided at the first
   * report; null for an anonymous caller; absent on calls stored before it was kept. */
  firstCall?: boolean | null;
  /** Ours (people/): the person this call is one of (its caller's number, its visitor); absent on
   * calls stored before people were joined, and on anonymous calls without a visit. */
  personId?: number | null;
  /** Ours (telephony/leads.ts): by the domain's lead rule, or by the verdict; null while the call goes on. */
  lead?: boolean | null;
  /** Ours: a person's word on the call, which wins over the rule; absent or null: none. */
  verdict?: CallVerdict | null;
  /** Ours: when its GA4 `generate_lead` was claimed (telephony/lead-events.ts), once per call. */
  leadEventAt?: Date;
  /** Ours (flows/, issue 65): the call flow the call went through, absent: the domain's default
   * (forwarded to its destination); the steps it took, who answered, whether a voicemail was left,
   * and why the flow failed when it did (the call then went to the destination). */
  flowId?: string;
  flowPath?: CallFlowStep[];
  answeredBy?: CallAnswerer | null;
  voicemail?: boolean;
  flowFailure?: { at: Date; error: string };
  /** Ours (issue 80): the caller hung up before anybody answered or any phone rang (telephony/flow-outcome.ts). */
  abandoned?: CallAbandoned | null;
  analysis?: CallAnalysis;
  /** Ours (issue 68): a call a member placed to the person from the back end (click-to-call);
   * absent: a call received. Never a lead, a first-time caller nor attributed; no report counts it. */
  direction?: 'outbound';
  /** The member who placed it, the phone rung first, and whether they picked up. */
  outbound?: { by: string; memberPhone: string; memberAnswered: boolean | null };
}

/** One step of a call's way through its flow: "pressed 2 (Support)", "Ada did not answer (20 s)". */
export interface CallFlowStep {
  step: string;
  /** The name a person gave the step ("Sales team"), when it has one. */
  name?: string;
  kind: string;
  /** The key pressed or word said. */
  input?: string;
  /** The member's name or the number rung. */
  target?: string;
  outcome: string;
  at: Date;
}

/** Where a caller left a flow nobody answered them in, and after how long on the line. */
export interface CallAbandoned {
  step: string;
  name?: string;
  kind: string;
  seconds: number;
}

/** Who answered a call rung through a ring group: a member (their username) or a plain number. */
export interface CallAnswerer {
  member: string | null;
  number: string;
  name: string;
  /** Seconds the answering leg rang before it was picked up, when the carrier said. */
  afterSeconds?: number | null;
}

/** A person's word on a call: a lead, not a lead, or spam (which blocks its caller too); or a rule's
 * (rules/), which blocks no caller and gives way to a person's. */
export interface CallVerdict {
  value: 'lead' | 'not-lead' | 'spam';
  /** The back end's user, or `rule <name>`. */
  by: string;
  at: Date;
  /** Ours (rules/): the id of the rule that gave it; absent: a person did. */
  rule?: string;
}

/** Ours (rules/, issue 55): what a person or a rule marked on a call or a form submission. */
export interface Marks {
  /** The account's tags (their names). */
  tags?: string[];
  /** A lead's value in the domain's currency; absent or null: none. */
  value?: number | null;
  /** What a person set, which no rule changes: the verdict, the value, the tags they took off. */
  byHand?: { verdict?: boolean; value?: boolean; untagged?: string[] };
  /** What people and rules did to it, oldest first (the last MAX_HISTORY). */
  history?: MarkEntry[];
  /** Ours (ads/, issue 56): where its lead is with each ad platform, as the data API and pushes show it. */
  adsConversions?: AdsConversionMark[];
  /** Ours (crm/, issue 67): its records in the team's CRM, each with its state. */
  crmRecords?: CrmRecordMark[];
}

/** A record of a call or form in a CRM: its person or its activity, `sent`, `updated` or `failed`. */
export interface CrmRecordMark {
  crm: string;
  object: string;
  id: string | null;
  state: string;
  link: string | null;
  error?: string;
}

/** A lead's conversion with one ad platform: queued, sent, rejected or not sent, and why. */
export interface AdsConversionMark {
  platform: string;
  state: string;
  at: Date;
  reason?: string;
}

export interface MarkEntry {
  at: Date;
  /** The back end's user, or `rule <name>`. */
  by: string;
  /** The rule's id when a rule did it. */
  rule?: string;
  /** `tagged appointment`, `value 120`, `verdict lead`, `posted to the chat`. */
  what: string;
  /** The rule's run over past calls that did it (rules/rule-runs.ts), and what the field was before, to undo it. */
  run?: string;
  before?: { value?: number | null; verdict?: CallVerdict | string | null };
}

export interface SmsDoc {
  _id: number;
  domainId: string;
  smsRef: string;
  trackingNumber: string;
  caller: string | null;
  sentAt: Date;
  /** A string for one plain part; an array for unicode or several parts. */
  message: string | string[];
  receivedAt: Date;
  /** From a caller on the domain's blocklist: kept, never listed by the data API. */
  blocked?: boolean;
  /** Ours (issue 81): the pictures and files of an MMS, where the carrier keeps them (Twilio: MediaUrlN). */
  media?: TextMedia[];
}

/** A picture or file sent with a text, at the carrier (read through its API with the account's credentials). */
export interface TextMedia {
  url: string;
  contentType: string;
}

/** A caller a domain refuses (telephony/blocked-callers.ts); `_id` = `<domainId>|<number>`. */
export interface BlockedCallerDoc {
  _id: string;
  domainId: string;
  /** Normalized digits, as callers are stored. */
  number: string;
  addedAt: Date;
  /** The back end's user, `fixture`, or `api`. */
  addedBy: string;
}

/** A caller's first call to a domain (telephony/first-calls.ts); `_id` = `<domainId>|<number>`. */
export interface CallerDoc {
  _id: string;
  domainId: string;
  firstCallId: number;
  at: Date;
}

/** Who last answered a caller through a call flow's sticky ring group (flows/ring-turns.ts):
 * `_id` = `<domainId>|<caller>`; erased with the caller's person. */
export interface StickyAnswerDoc {
  _id: string;
  member: string;
  at: Date;
}

/** The indexes of these collections: every query of a request's path goes through one. */
export const telephonyIndexes: IndexPlan = {
  calls: [
    // The data API reads a domain's calls of a date range, oldest first.
    [{ domainId: 1, startedAt: 1, _id: 1 }],
    // callStart finds the call ringing on a number around a time; the data API filters by it.
    [{ trackingNumber: 1, startedAt: 1, _id: 1 }],
    // The data API's other filters, each with its own index.
    [{ domainId: 1, destination: 1, startedAt: 1, _id: 1 }],
    [{ domainId: 1, offlineDescription: 1, startedAt: 1, _id: 1 }],
    // The calls still without an outcome, for the warning that the carrier stopped reporting
    // (alerts/warnings.ts): every call has a status once reported, so the null range stays small.
    [{ status: 1, startedAt: 1 }],
    // The recordings due for deletion (recordings/retention.ts): only calls with one have the field.
    [{ 'recording.storedAt': 1 }, { sparse: true }],
  ],
  // A person's texts, by their number (people/), beside the data API's range.
  sms: [[{ domainId: 1, sentAt: 1, _id: 1 }], [{ domainId: 1, caller: 1, sentAt: 1 }]],
};

/** The telephony family's collections, as its services receive them. */
export interface TelephonyCollections {
  calls: Collection<CallDoc>;
  sms: Collection<SmsDoc>;
  blockedCallers: Collection<BlockedCallerDoc>;
  callers: Collection<CallerDoc>;
  stickyAnswers: Collection<StickyAnswerDoc>;
}

export function telephonyCollections(db: Db): TelephonyCollections {
  return collectionsNamed<TelephonyCollections>(db, { calls: 'calls', sms: 'sms', blockedCallers: 'blocked_callers', callers: 'callers', stickyAnswers: 'sticky_answers' });
}
