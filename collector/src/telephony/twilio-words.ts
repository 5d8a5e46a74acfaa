// Twilio's words the adapter and the call flows' Twilio adapter (flows/twilio-flow.ts) share: the
// statuses onto Appendix A, a request's parameters, today's forward <Dial>, a stored call as a report
// of itself, the TwiML answer.
import type { Context } from 'koa';
import twilio from 'twilio';
import { toE164, type CallStatus } from '@ringtrail/shared';
import type { RecordingPlan } from '../domains/recording-settings.ts';
import { bodyOf } from '../http/body.ts';
import { TelephonyFailure } from '../http/telephony-envelope.ts';
import type { CallDoc } from './documents.ts';
import type { CallInput } from './service.ts';

/** Twilio's final call statuses onto Appendix A; the others (queued, ringing, in-progress) are not an outcome yet. */
export const OUTCOMES: Record<string, CallStatus> = {
  completed: 'SUCCESS',
  busy: 'BUSY',
  'no-answer': 'NORESPONSE',
  failed: 'ANOMALY',
  canceled: 'INTERRUPTED',
};

/** `DialCallStatus` of the <Dial action> request: the forwarded leg's outcome. `answered` is what a
 * dial to a conference reports for `completed`. */
const DIAL_OUTCOMES: Record<string, CallStatus> = { ...OUTCOMES, answered: 'SUCCESS' };

/** Ring time of a leg without a redirect after it: Twilio's own default. */
export const RING_SECONDS = 30;


/** The forwarded leg's outcome, as the <Dial action> request brings it: its Appendix A status, the
 * conversation as the duration, answered this long after the call came in (what rang before
 * included), billed for the whole call so far. */
export function dialOutcome(known: CallDoc, p: Params, isRedirect: boolean, now = Date.now()): CallInput {
  const status = DIAL_OUTCOMES[p.DialCallStatus ?? ''] ?? 'ANOMALY';
  const talked = status === 'SUCCESS' ? Number(p.DialCallDuration ?? 0) || 0 : 0;
  return {
    ...storedReport(known),
    status,
    duration: talked,
    answerTime: status === 'SUCCESS' ? Math.max(0, Math.round((now - talked * 1000 - known.startedAt.getTime()) / 1000)) : 0,
    billingDuration: minutesOf(Math.round((now - known.startedAt.getTime()) / 1000)),
    isRedirect,
  };
}

/** Today's forward: one <Dial> to the destination, its outcome to /dial (which dials the no-answer
 * redirect), recorded from the answer as the plan says, whispered to whoever answers. */
export function forward(twiml: InstanceType<typeof twilio.twiml.VoiceResponse>, o: { callId: number; destination: string; callerId: string | null; seconds: number; plan: RecordingPlan | null; whisper: boolean; action?: string }): void {
  const leg = twiml.dial({ ...(o.callerId ? { callerId: o.callerId } : {}), action: o.action ?? 'dial', method: 'POST', timeout: o.seconds, ...recordedDial(o.plan) });
  leg.number(o.whisper ? { url: `whisper?call=${o.callId}`, method: 'POST' } : {}, toE164(o.destination));
}

export type Params = Record<string, string | undefined>;

export function params(ctx: Context): Params {
  return bodyOf(ctx.request) as Params;
}

export function required(p: Record<string, string | undefined>, name: string): string {
  const value = p[name];
  if (!value) throw new TelephonyFailure(400, `Missing parameter ${name}`);
  return value;
}


/** A stored call as a report of itself: a later report that changes only what it names. */
export function storedReport(call: CallDoc): CallInput {
  return {
    callRef: call.callRef,
    trackingNumber: call.trackingNumber,
    callerPhone: call.caller,
    startDate: call.startedAt,
    status: call.status,
    duration: call.duration,
    billingDuration: call.billingDuration,
    answerTime: call.answerTime,
    triggerType: call.triggerType,
    code: call.code ?? undefined,
    keypad: call.keypad ?? undefined,
    postcode: call.postcode ?? undefined,
    isRedirect: call.isRedirect,
    revenue: call.revenue,
  };
}

/** Twilio bills voice by the started minute. */
export function minutesOf(seconds: number): number {
  return Math.ceil(seconds / 60) * 60;
}

/** <Dial>'s recording attributes: from the answer, both parties apart (dual) or mixed; Twilio calls
 * `recordingStatusCallback` (relative: /telephony/twilio/recording) when the audio is ready. */
export function recordedDial(plan: RecordingPlan | null): Partial<{ record: 'record-from-answer-dual' | 'record-from-answer'; recordingStatusCallback: string; recordingStatusCallbackMethod: 'POST' }> {
  if (!plan) return {};
  return { record: plan.channels === 'dual' ? 'record-from-answer-dual' : 'record-from-answer', recordingStatusCallback: 'recording', recordingStatusCallbackMethod: 'POST' };
}

export function xml(ctx: Context, twiml: { toString(): string }): void {
  ctx.type = 'text/xml';
  ctx.body = twiml.toString();
}
