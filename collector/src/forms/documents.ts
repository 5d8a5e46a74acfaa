// Form submissions (ours): the shapes and indexes of their documents (house/all-collections.ts gathers
// every family's). A submission is attributed as a call is: its visit's source, keyword and click
// ids, and the visitor's touches.
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';
import type { Touch } from '../tracking/touches.ts';
import type { VERDICTS } from '../telephony/leads.ts';
import type { Marks } from '../telephony/documents.ts';

/** Why a submission is spam: the tag's hidden field was filled, it came too soon after the page
 * opened (a robot's speed), or a person said so. */
export type FormSpamReason = 'honeypot' | 'too-fast' | 'verdict';

/** What a person said of a form: the calls' verdicts. */
export type FormVerdict = (typeof VERDICTS)[number];

export interface FormDoc extends Marks {
  _id: number;
  domainId: string;
  submittedAt: Date;
  pageUrl: string;
  formName: string | null;
  /** The captured fields, name to value, as sent (text; shown as text everywhere). */
  fields: Record<string, string>;
  /** The contact found among the fields: a phone number (canonical) and an e-mail address (lower case). */
  phone: string | null;
  email: string | null;
  visitId: number | null;
  uniqueVisitorId: string | null;
  source: string | null;
  keyword: string | null;
  gclid: string | null;
  msclkid: string | null;
  fbclid: string | null;
  /** Ours (issue 56): present only when the visit had them. */
  gbraid?: string;
  wbraid?: string;
  /** Ours (issue 56): the visit's pages denied ad storage (Google's consent mode): no identifier is sent to the ad platforms. Only when true. */
  adsDenied?: true;
  lastTouch: Touch | null;
  firstTouch: Touch | null;
  lastNonDirect: Touch | null;
  /** What the signals said (the hidden field, a robot's speed), kept when a verdict overrides it. */
  signal: Exclude<FormSpamReason, 'verdict'> | null;
  /** A person's word (form-writes.ts), which wins over the signals; absent or null: none. */
  verdict?: FormVerdict | null;
  spam: FormSpamReason | null;
  /** A lead unless spam (or a person's verdict says otherwise). */
  lead: boolean;
  /** Ours (people/): the person this contact is one of; null without a phone, e-mail or visitor id. */
  personId: number | null;
  /** Ours: its write's revision (absent: 0), for what is kept from it (people/person-contacts.ts). */
  rev?: number;
  /** When its personal fields were erased with its person's (people/erase.ts). */
  erasedAt?: Date;
}

export const formIndexes: IndexPlan = {
  // The forms log and the data API: a domain's submissions of a range, oldest first.
  forms: [[{ domainId: 1, submittedAt: 1, _id: 1 }]],
};

/** The forms family's collections, as its services receive them. */
export interface FormCollections {
  forms: Collection<FormDoc>;
}

export function formCollections(db: Db): FormCollections {
  return collectionsNamed<FormCollections>(db, { forms: 'forms' });
}
