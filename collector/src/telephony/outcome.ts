// What happened to a call, told apart from what its route made of it. Appendix A's `status` mixes the
// two: a call to a number nobody held (an online number between visitors, an offline number not
// assigned) is NOTASSIGNED whatever happened. That is about attribution: the caller was still
// answered or missed, and recorded. The back end, the missed-call alert and the lead rule read this.
import type { CallStatus } from '@ringtrail/shared';
import type { CallDoc } from './documents.ts';

/** Appendix A's statuses in words, as every screen and mail writes them (the code itself stays in
 * the CSV, the data API and the title of a status). */
export const OUTCOME_WORDS: Record<string, string> = {
  SUCCESS: 'Answered',
  NORESPONSE: 'No answer',
  BUSY: 'Busy',
  EXPIRED: 'Expired number',
  NOTASSIGNED: 'Number not assigned',
  INTERRUPTED: 'Caller hung up',
  ANOMALY: 'Failed',
  ERR_SVI_STOP: 'Left the voice menu',
  ERR_CALLER_MSG: 'Hung up during the message',
  CALLER_PHONE_BLACKLISTED: 'Blocked caller',
  ONGOING: 'Ongoing',
};

/** What a screen or a mail says of a call (a stored one, a calls-log row, a timeline event): its
 * outcome, and whether the number was held by nobody, so the call is not attributed. The status
 * itself, but for one NOTASSIGNED with an outcome its carrier reported (calls stored before
 * `outcome` was kept stay NOTASSIGNED). */
export function outcomeShown<S extends string>(call: { status: S | null; outcome?: S | null }): { outcome: S | null; unattributed: boolean } {
  const unattributed = call.status === 'NOTASSIGNED' && call.outcome != null && call.outcome !== 'NOTASSIGNED';
  return { outcome: unattributed ? call.outcome! : call.status, unattributed };
}

export function callOutcome(call: Pick<CallDoc, 'status' | 'outcome'>): CallStatus | null {
  return outcomeShown(call).outcome;
}

/** Our `outcome` field of an answer about the call: only where it is not the status. */
export function outcomeApart(call: Pick<CallDoc, 'status' | 'outcome'>): { outcome?: CallStatus } {
  const { outcome, unattributed } = outcomeShown(call);
  return unattributed ? { outcome: outcome! } : {};
}

/** How a call ended as its counts tell it apart (issue 80): answered by a person or a forward target,
 * missed (rang, busy, nobody picked up), abandoned (the caller left a flow before any phone rang),
 * or a voicemail left; null for any other outcome (interrupted, failed, blocked) or one not known yet. */
export type Ended = 'answered' | 'missed' | 'abandoned' | 'voicemail';
export const ENDED: readonly Ended[] = ['answered', 'missed', 'abandoned', 'voicemail'];

export function endedAs(call: Pick<CallDoc, 'status' | 'outcome' | 'voicemail' | 'abandoned'>): Ended | null {
  const outcome = callOutcome(call);
  if (outcome === 'SUCCESS') return 'answered';
  if (call.voicemail) return 'voicemail';
  if (call.abandoned) return 'abandoned';
  return outcome === 'NORESPONSE' || outcome === 'BUSY' ? 'missed' : null;
}

/** The calls that `endedAs` says ended so, as a query (the calls log's filter). */
export function endedFilter(ended: Ended): Record<string, unknown> {
  // As callOutcome reads it: the status, or the carrier's outcome of a call to a number nobody held.
  const outcomeIn = (statuses: CallStatus[]) => ({ $or: [{ status: { $in: statuses } }, { status: 'NOTASSIGNED', outcome: { $in: statuses } }] });
  switch (ended) {
    case 'answered':
      return outcomeIn(['SUCCESS']);
    case 'voicemail':
      return { voicemail: true };
    case 'abandoned':
      return { 'abandoned.step': { $exists: true }, voicemail: { $ne: true } };
    case 'missed':
      return { ...outcomeIn(['NORESPONSE', 'BUSY']), voicemail: { $ne: true }, 'abandoned.step': { $exists: false } };
  }
}
