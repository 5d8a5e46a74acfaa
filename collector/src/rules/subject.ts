// What a rule's conditions are tested on: a call, a form submission or a text read once into plain values
// (the attribution's text in lower case, the domain's local day and time), so that each condition is
// a comparison on it, never a query.
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { FormDoc } from '../forms/documents.ts';
import type { CallDoc } from '../telephony/documents.ts';
import { callOutcome } from '../telephony/outcome.ts';
import { e164Of, nationalOf } from '../domains/phone-numbers.ts';
import { localTime } from '../domains/time-zone.ts';
import type { Touch } from '../tracking/touches.ts';

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

export interface RuleSubject {
  kind: 'call' | 'form' | 'text';
  /** Lower case; '' when unknown. `source` is the whole label (`paid:google`), `sourceName` its name. */
  sourceClass: string;
  source: string;
  sourceName: string;
  medium: string;
  campaign: string;
  keyword: string;
  landingPage: string;
  /** The domain's local day of the week and minutes since its midnight. */
  day: (typeof DAYS)[number];
  minutes: number;
  /** The person had a lead before this contact. */
  hadLead: boolean;
  call?: {
    trackingNumber: string;
    /** The tracking number's pool (its type), when it is still one of the domain's. */
    pool: number | null;
    duration: number;
    answered: boolean;
    firstCall: boolean | null;
    callerCountry: string | null;
    /** The caller's number as the domain's country writes it, digits only. */
    callerNational: string | null;
    /** Labels heard: by the caller, by whoever answered, by anyone. */
    heard: { caller: string[]; agent: string[]; any: string[] };
    /** What the language model read, once the call is analysed: outcomes by name, answers by
     * question in lower case (a person's corrections are in them). */
    analysis: { outcomes: Record<string, string>; leadScore: number; sentiment: string; answers: Record<string, string> } | null;
  };
  /** A form's fields, names in lower case, values in lower case. */
  fields?: Record<string, string>;
  /** A text's number texted and texter's number (as a call's), and its words in lower case. */
  text?: Pick<NonNullable<RuleSubject['call']>, 'trackingNumber' | 'pool' | 'callerCountry' | 'callerNational'> & { words: string };
}

/** A text received (texting/, issue 68), as its rules see it: its words, who texted which number, and
 * who led to it (the visit holding the number, or the offline campaign, as for a call). */
export interface RuleText {
  /** Its id in the inbox (`in:<smsId>`), the spec's SMS id, and its conversation's. */
  id: string;
  smsId: number;
  conversationId: string;
  domainId: string;
  personId: number | null;
  at: Date;
  /** The texter's number (canonical) and the tracking number texted. */
  from: string;
  trackingNumber: string;
  body: string;
  source: string | null;
  keyword: string | null;
  lastTouch: Touch | null;
}

/** What the subject's surroundings say: the domain's time zone and country, the number's pool, the person's first lead. */
export interface SubjectContext {
  timeZone: string;
  country: string;
  pool: number | null;
  /** When the person's first lead began, if they have one. */
  firstLeadAt: number | null;
}

const lower = (s: string | null | undefined) => (s ?? '').toLowerCase();

function attribution(source: string | null, keyword: string | null, touch: Touch | null | undefined): Pick<RuleSubject, 'sourceClass' | 'source' | 'sourceName' | 'medium' | 'campaign' | 'keyword' | 'landingPage'> {
  const label = lower(source);
  let medium = '';
  try {
    if (touch) medium = lower(new URL(touch.landingUrl).searchParams.get('utm_medium'));
  } catch {
    // A landing page that is no URL has no medium.
  }
  return { sourceClass: label ? label.split(':')[0]! : 'unattributed', source: label, sourceName: label.split(':')[1] ?? label, medium, campaign: lower(touch?.campaign), keyword: lower(keyword), landingPage: lower(touch?.landingUrl) };
}

function when(at: Date, timeZone: string): Pick<RuleSubject, 'day' | 'minutes'> {
  const { day, time } = localTime(at, timeZone);
  return { day: DAYS[new Date(`${day}T00:00:00Z`).getUTCDay()]!, minutes: Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) };
}

/** The caller's (or texter's) country from their number, and their national number's digits. */
function callerOf(phone: string | null, context: SubjectContext): { callerCountry: string | null; callerNational: string | null } {
  if (!phone) return { callerCountry: null, callerNational: null };
  return { callerCountry: parsePhoneNumberFromString(e164Of(phone))?.country ?? null, callerNational: nationalOf(phone, context.country).replace(/\D/g, '') };
}

export function callSubject(call: CallDoc, context: SubjectContext): RuleSubject {
  const heard = call.transcript?.status === 'ready' ? call.transcript : null;
  return {
    kind: 'call',
    ...attribution(call.source, call.keyword, call.lastTouch),
    ...when(call.startedAt, context.timeZone),
    hadLead: context.firstLeadAt !== null && context.firstLeadAt < call.startedAt.getTime(),
    call: {
      trackingNumber: call.trackingNumber,
      pool: context.pool,
      duration: call.duration,
      answered: callOutcome(call) === 'SUCCESS',
      firstCall: call.firstCall ?? null,
      ...callerOf(call.caller, context),
      heard: { caller: heard?.heardBy?.caller ?? [], agent: heard?.heardBy?.agent ?? [], any: heard?.keyPhrases ?? [] },
      analysis: analysisRead(call),
    },
  };
}

function analysisRead({ analysis: a }: CallDoc): NonNullable<RuleSubject['call']>['analysis'] {
  if (a?.status !== 'ready') return null;
  return {
    outcomes: Object.fromEntries(Object.entries(a.outcomes ?? {}).map(([name, j]) => [name, j.answer])),
    leadScore: a.leadScore ?? 0,
    sentiment: a.sentiment ?? 'neutral',
    answers: Object.fromEntries((a.answers ?? []).map((q) => [q.question.toLowerCase(), q.answer])),
  };
}

export function formSubject(form: FormDoc, context: SubjectContext): RuleSubject {
  return {
    kind: 'form',
    ...attribution(form.source, form.keyword, form.lastTouch),
    ...when(form.submittedAt, context.timeZone),
    hadLead: context.firstLeadAt !== null && context.firstLeadAt < form.submittedAt.getTime(),
    fields: Object.fromEntries(Object.entries(form.fields).map(([name, value]) => [name.toLowerCase(), lower(value)])),
  };
}

export function textSubject(text: RuleText, context: SubjectContext): RuleSubject {
  return {
    kind: 'text',
    ...attribution(text.source, text.keyword, text.lastTouch),
    ...when(text.at, context.timeZone),
    hadLead: context.firstLeadAt !== null && context.firstLeadAt < text.at.getTime(),
    text: { trackingNumber: text.trackingNumber, pool: context.pool, ...callerOf(text.from, context), words: lower(text.body) },
  };
}
