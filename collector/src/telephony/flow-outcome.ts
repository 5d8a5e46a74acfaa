// How a call that went through a flow ended, from what happened on it (issue 80). The carrier's word
// that the call is over says little: Twilio answered the inbound leg of every flow call, so it is
// `completed`; a PBX answered it too. A flow call is answered only when a person or a forward target
// answered; otherwise, by the path it took:
//   - a voicemail was left: NORESPONSE (Appendix A's "nobody answered"), ours `voicemail`;
//   - a ring group or a forward rang and nobody picked up, then the caller hung up: missed, NORESPONSE;
//   - the caller hung up before any phone rang (a menu, a schedule's message, a greeting): ours
//     `abandoned`, NORESPONSE too, with the step they left at and how long they stayed.
// Its duration is the caller's time on the line where nobody talked to them but they listened (a
// message left, a menu heard); 0 for a missed call, as for a forward nobody answered.
import type { CallStatus } from '@ringtrail/shared';
import type { CallAbandoned, CallDoc } from './documents.ts';

type Ended = Pick<CallDoc, 'flowId' | 'flowPath' | 'answeredBy' | 'voicemail' | 'status' | 'abandoned' | 'duration'>;

/** What the end of a flow call sets: its status, duration and, when the caller left, where. */
export interface FlowEnd {
  status: CallStatus;
  duration: number;
  abandoned: CallAbandoned | null;
}

/** Whether a phone rang for the call and nobody answered it (a ring group or a forward). */
export function rangUnanswered(call: Pick<CallDoc, 'flowPath'>): boolean {
  return (call.flowPath ?? []).some((e) => (e.kind === 'ring' || e.kind === 'forward') && /did not answer|nobody to ring|not answered/.test(e.outcome));
}

/** The end of a flow call the carrier says is over after `seconds` on the line, reported `reported`;
 * null when the report stands: no flow, someone answered (a <Dial> leg), the flow ended in a forward
 * (its <Dial> leg, or the PBX, tells the outcome: a flow that failed forwards too). */
export function flowEnd(call: Ended, reported: CallStatus, seconds: number): FlowEnd | null {
  if (!call.flowId || call.answeredBy) return null;
  if (call.voicemail) return { status: 'NORESPONSE', duration: seconds, abandoned: null };
  const last = call.flowPath?.at(-1);
  if (last?.kind === 'forward' || reported === 'CALLER_PHONE_BLACKLISTED' || call.status === 'SUCCESS') return null;
  // Decided already (the caller hung up at a step, or while a group rang): a later "completed" changes nothing.
  if (call.status !== null) return { status: call.status, duration: call.abandoned ? seconds : call.duration, abandoned: call.abandoned ?? null };
  if (rangUnanswered(call)) return { status: 'NORESPONSE', duration: 0, abandoned: null };
  return { status: 'NORESPONSE', duration: seconds, abandoned: { step: last?.step ?? '-', ...(last?.name ? { name: last.name } : {}), kind: last?.kind ?? 'start', seconds } };
}
