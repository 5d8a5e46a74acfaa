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

/** The call's status, or, for one NOTASSIGNED, the outcome its carrier reported (calls stored
 * before `outcome` was kept stay NOTASSIGNED). */
export function callOutcome(call: Pick<CallDoc, 'status' | 'outcome'>): CallStatus | null {
  return call.status === 'NOTASSIGNED' && call.outcome != null ? call.outcome : call.status;
}
