// Wire formats of the telephony side (not in the spec): what a PBX or carrier reports to the collector.
import { z } from 'zod';
import { normalizePhone } from '../phone.ts';
import { formatUtcDateTime, phoneDigits, wireBool, wireInt, wireText } from './wire.ts';

/** Spec document 2, Appendix A. */
export const CALL_STATUSES = [
  'SUCCESS',
  'ANOMALY',
  'BUSY',
  'NORESPONSE',
  'EXPIRED',
  'INTERRUPTED',
  'ERR_SVI_STOP',
  'NOTASSIGNED',
  'ERR_CALLER_MSG',
  'CALLER_PHONE_BLACKLISTED',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** Spec document 2, Appendix B: 1 normal, 2 webcall, 3 rule, 4 triggered. */
export const TRIGGER_TYPES = [1, 2, 3, 4] as const;

/** A caller number, or null for `anonymous` (or empty). */
export const callerPhone = wireText.transform((value, ctx): string | null => {
  if (value.trim() === '' || value.trim().toLowerCase() === 'anonymous') return null;
  const digits = normalizePhone(value);
  if (!digits) ctx.addIssue({ code: 'custom', message: 'is not a phone number or anonymous' });
  return digits;
});

/** `YYYY-MM-DD HH:MM:SS`, UTC. */
export const utcDateTime = wireText.transform((value, ctx): Date => {
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/.exec(value);
  const date = m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : null;
  if (!date || Number.isNaN(date.getTime()) || formatUtcDateTime(date) !== value) {
    ctx.addIssue({ code: 'custom', message: 'must be a UTC date YYYY-MM-DD HH:MM:SS' });
    return new Date(NaN);
  }
  return date;
});

const seconds = wireInt.refine((v) => v >= 0, 'must be 0 or more seconds');
const digitsText = wireText.regex(/^[0-9*#]{0,32}$/, 'must be keypad digits');
const money = z.union([z.number(), wireText.regex(/^-?\d+(\.\d+)?$/).transform(Number)], { error: 'must be a number' });

export const callReport = z.object({
  callRef: wireText.min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
  trackingNumber: phoneDigits,
  callerPhone,
  /** Left out by a later report of a callRef already reported (a call flow's PBX never gave one): the stored start. */
  startDate: utcDateTime.optional().describe('When the call started; a later report of the same callRef may leave it out (the first one gave it, or POST /telephony/flow recorded it)'),
  /** Left out: the call is going on, its outcome in a later report of the same callRef. */
  status: z.enum(CALL_STATUSES, { error: `must be one of ${CALL_STATUSES.join(', ')}` }).optional().describe('The outcome (see Call statuses); left out while the call goes on, sent in a later report of the same callRef'),
  duration: seconds.default(0),
  billingDuration: seconds.optional(),
  answerTime: seconds.default(0),
  triggerType: wireInt.refine((v) => (TRIGGER_TYPES as readonly number[]).includes(v), 'must be 1, 2, 3 or 4').default(1),
  code: wireText.regex(/^\d{1,8}$/, 'must be the digits of a code').optional(),
  keypad: digitsText.optional(),
  postcode: wireText.max(16, 'must be at most 16 characters').optional(),
  isRedirect: wireBool.default(false),
  revenue: money.default(0),
  /** Ours: where the call's recording is (WAV or MP3): the collector fetches it into its database. */
  recordingUrl: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2048, 'must be at most 2048 characters').optional().describe("Ours: where the collector fetches the call's recording (WAV or MP3) into its database, once"),
});
export type CallReport = z.infer<typeof callReport>;

export const smsReport = z
  .object({
    smsRef: wireText.min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
    trackingNumber: phoneDigits,
    callerPhone,
    sentDate: utcDateTime,
    message: wireText.max(1600, 'must be at most 1600 characters').optional().describe("The SMS's text, in one plain part (or send parts)"),
    parts: z.array(wireText.max(1600, 'must be at most 1600 characters'), { error: 'must be an array of strings' }).min(1, 'must hold at least one part').max(10, 'must hold at most 10 parts').optional(),
  })
  .refine((s) => (s.message === undefined) !== (s.parts === undefined), { message: 'send either message or parts', path: ['message'] });
export type SmsReport = z.infer<typeof smsReport>;

export const routeQuery = z.object({
  tracking_number: phoneDigits,
  code: wireText.regex(/^\d{1,8}$/, 'must be the digits of a code').optional(),
  /** The caller, as carriers know it before they route: a blocked one is refused. */
  caller_phone: callerPhone.optional(),
});

/** Ours (issue 65): `POST /telephony/flow`, a PBX walking a call through its number's call flow.
 * The first request names the call; each next one gives back the `step` the last answer named, with
 * what happened there (`input`). */
export const flowRequest = z.object({
  callRef: wireText.min(1, 'must not be empty').max(128, 'must be at most 128 characters').describe("The carrier's reference of the call, as /telephony/calls reports it"),
  trackingNumber: phoneDigits.describe('The tracking number called'),
  callerPhone: callerPhone.optional().describe('The caller, or anonymous'),
  step: wireText.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}:\d{1,2}$/, 'must be the step the last answer named').optional().describe('The step the last answer named; absent on the first request of a call'),
  input: wireText.max(100, 'must be at most 100 characters').optional().describe('At a gather: the key pressed (or a word said), empty for none; at a dial: answered, or no-answer (busy, failed); at a record: recorded; at any step: hangup, the caller hung up there (with `seconds`: their time on the line)'),
  answeredBy: wireText.max(40).optional().describe('At a dial answered: the number that picked up'),
  seconds: seconds.optional().describe('At a dial: how long it rang (before it was answered, when it was); at a record: how long the message is; at a hangup: how long the caller was on the line'),
});

export type RouteReason = 'online' | 'expired' | 'overflow' | 'offline' | 'not-assigned' | 'code-required' | 'unknown-number' | 'blocked';

/** Where a call goes when the destination does not answer within `afterSeconds` (or is busy). */
export interface RedirectPlan {
  destination: string;
  afterSeconds: number;
}

export interface RouteAnswer {
  status: 'OK';
  trackingNumber: string;
  /** Where to forward the call; null: nowhere (ask for the code, or reject). */
  destination: string | null;
  reason: RouteReason;
  /** The Appendix A status the call must be reported with whatever its outcome, if any (NOTASSIGNED, EXPIRED). */
  forcedStatus: CallStatus | null;
  /** For a shared number without a valid code: how many digits to ask for. */
  codeDigits?: number;
  visitId?: number;
  /** Null: a missed call stays missed (redirects off, outside their timetable, or no redirect number). */
  redirect: RedirectPlan | null;
  /** The sentence to say to whoever answers before connecting the caller; null: the domain's whisper is off. */
  whisper: string | null;
  /** Ours: record the forwarded leg from its answer, after saying the announcement to the caller; null: do not record. */
  recording: { announcement: string | null; language: string; channels: 'dual' | 'mono' } | null;
  /** Ours (issue 65): the number has a call flow beyond a forward: `destination` is the first phone a
   * caller who presses nothing reaches, and POST /telephony/flow walks the call through it. */
  flow?: true;
}
