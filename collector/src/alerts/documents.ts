// Alerts by e-mail: each person's choices per domain, the call alerts waiting to be mailed, and the
// tokens of the unsubscribe links: the shapes and indexes of their documents (house/all-collections.ts
// gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';

/** What happened to a call that a person may be told of; ours (issue 68): a text received. */
export const CALL_ALERTS = ['missedCall', 'newLead', 'firstCaller', 'spamBlocked', 'newText'] as const;
export type CallAlert = (typeof CALL_ALERTS)[number];
/** What a pending alert's mail is about: a call alert, or a rule's mail action; ours (issue 80):
 * `voicemailTranscript`, a voicemail's transcript made after its missed-call mail went (sent to
 * whoever gets the missed-call mails, as they chose them). */
export type PendingAlert = CallAlert | 'rule' | 'voicemailTranscript';

/** How a call alert is sent: at once (a burst gathered into one mail a minute), in an hourly digest, or not. */
export const DELIVERIES = ['immediate', 'hourly', 'off'] as const;
export type Delivery = (typeof DELIVERIES)[number];

export interface AlertChoices extends Record<Exclude<CallAlert, 'newText'>, Delivery> {
  /** Ours (issue 68): texts received; absent until the person chooses, following their missed calls'. */
  newText?: Delivery;
  /** Missed calls outside the domain's timetable too (its redirect's hours); off by default. */
  missedOutsideHours: boolean;
  /** The warnings that tracking is broken (the tag stopped, a pool ran out...). */
  warnings: boolean;
  weekly: boolean;
  monthly: boolean;
}

export type AlertChoice = keyof AlertChoices;

/** A person's choices for one domain, as they changed them; the rest are their role's defaults. */
export interface AlertChoiceDoc extends Partial<AlertChoices> {
  _id: string; // `<username>|<domainId>`
  username: string;
  domainId: string;
  updatedAt: Date;
}

/** One call alert waiting for its mail: gathered with the person's others of the same kind and
 * domain. A form submission that is a lead raises `newLead` too (a lead is a lead, call or form).
 * Ours (issue 55): `rule`, a rule's mail action (rules/rule-mails.ts), gathered per rule. */
export interface PendingAlertDoc {
  _id: string; // `<callId>|<alert>|<username>`, or `form:<formId>|<alert>|<username>`: one per contact, alert and person
  /** The member mailed; for a rule's mail, its address too (then no member of the account). */
  username: string;
  accountId: string;
  domainId: string;
  alert: PendingAlert;
  /** A rule's mail: the rule. */
  ruleId?: string;
  /** The call it is about; absent for a form submission's. */
  callId?: number;
  /** Ours since form tracking: the form submission it is about. */
  formId?: number;
  /** Ours (texting/, issue 68): the text received it is about, as its mail shows it (kept here, the
   * alert lasting only until its mail is queued). */
  text?: AlertText;
  at: Date;
  delivery: Exclude<Delivery, 'off'>;
  /** When its mail may go: now, a minute after the person's last one of this kind, or the next hour. */
  dueAt: Date;
  /** The mail it was put in (its outbox id), once taken: set before the mail is queued, so a process
   * that dies in between leaves it to be queued again under the same id. */
  batch: string | null;
  batchedAt?: Date;
}

/** A text received, as an alert mail lists it. */
export interface AlertText {
  /** Its id in the inbox (`in:<smsId>`) and its conversation's, for the link. */
  id: string;
  conversationId: string;
  /** The texter's person: their erase erases the mail too. */
  personId: number | null;
  at: Date;
  /** The texter's number (canonical) and the tracking number texted. */
  from: string;
  trackingNumber: string;
  /** At most 500 characters of it (the inbox has it whole). */
  body: string;
}

/** When a person was last mailed an alert of a kind for a domain: the next waits a minute. */
export interface AlertThrottleDoc {
  _id: string; // `<username>|<domainId>|<alert>`
  lastSentAt: Date;
}

/** An unsubscribe link's token, stored as its SHA-256: one choice of one person for one domain, or
 * (`rule:<ruleId>`) a rule's mails to a recipient. */
export interface UnsubscribeTokenDoc {
  _id: string;
  username: string;
  domainId: string;
  choice: AlertChoice | `rule:${string}`;
  /** What a rule's link stops, in words: `the mails of the rule Booked`. */
  label?: string;
  createdAt: Date;
  usedAt: Date | null;
}

/** A warning that tracking is broken (alerts/warnings.ts), of a domain or of an account: since when,
 * and when it ended; mailed once as it starts and once as it ends. */
export interface WarningStateDoc {
  _id: string; // `<domainId>|<warning>`, or `account:<accountId>|<warning>`
  accountId: string;
  domainId: string | null;
  warning: string;
  since: Date;
  endedAt: Date | null;
  facts: [string, string][];
}

/** A summary sent on schedule: claimed once, whichever process gets there first. */
export interface SummaryRunDoc {
  _id: string; // `<domainId>|<week|month>|<first day>`
  at: Date;
}

/** How long an unsubscribe link works. */
export const UNSUBSCRIBE_DAYS = 90;

export const alertIndexes: IndexPlan = {
  pendingAlerts: [[{ dueAt: 1 }], [{ batch: 1, batchedAt: 1 }]],
  unsubscribeTokens: [[{ createdAt: 1 }, { expireAfterSeconds: UNSUBSCRIBE_DAYS * 86_400 }]],
};

/** The alerts family's collections, as its services receive them. */
export interface AlertCollections {
  alertChoices: Collection<AlertChoiceDoc>;
  pendingAlerts: Collection<PendingAlertDoc>;
  alertThrottle: Collection<AlertThrottleDoc>;
  unsubscribeTokens: Collection<UnsubscribeTokenDoc>;
  summaryRuns: Collection<SummaryRunDoc>;
  warningStates: Collection<WarningStateDoc>;
}

export function alertCollections(db: Db): AlertCollections {
  return collectionsNamed<AlertCollections>(db, { alertChoices: 'alert_choices', pendingAlerts: 'pending_alerts', alertThrottle: 'alert_throttle', unsubscribeTokens: 'unsubscribe_tokens', summaryRuns: 'summary_runs', warningStates: 'warning_states' });
}
