// A PBX's side of the collector: the platform key, call reports in the /telephony/calls format, the
// route question, and Twilio's signed webhooks.
import { formatUtcDateTime } from '@ringtrail/shared';
import twilio from 'twilio';

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

/** A Twilio webhook request as Twilio sends it: form fields, signed with the auth token over the full URL. */
export async function twilioPost(baseUrl: string, path: string, params: Record<string, string>, token = TWILIO_TOKEN): Promise<{ status: number; text: string }> {
  const url = `${baseUrl}/telephony/twilio${path}`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(token, url, params) },
    body: new URLSearchParams(params),
  });
  return { status: res.status, text: await res.text() };
}

/** `GET /telephony/route` with the platform key. */
export async function routeCall(baseUrl: string, query: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${baseUrl}/telephony/route?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${TELEPHONY_KEY}` } });
  return { status: res.status, body: await res.json() };
}
