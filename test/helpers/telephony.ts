// A PBX's side of the collector: the platform key, and call reports in the /telephony/calls format.
import { formatUtcDateTime } from '@ringtrail/shared';

export const TELEPHONY_KEY = 'telephony-test-key-0123';
export const TWILIO_TOKEN = 'twilio-test-auth-token';

export interface CallFields {
  callRef: string;
  trackingNumber: string;
  startDate: Date;
  [field: string]: unknown;
}

export function callFields({ startDate, ...rest }: CallFields): Record<string, unknown> {
  return { callerPhone: '0611223344', status: 'SUCCESS', duration: 65, answerTime: 4, startDate: formatUtcDateTime(startDate), ...rest };
}

export async function reportCall(baseUrl: string, fields: CallFields): Promise<{ status: number; body: any }> {
  const res = await fetch(`${baseUrl}/telephony/calls`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(callFields(fields)),
  });
  return { status: res.status, body: await res.json() };
}
