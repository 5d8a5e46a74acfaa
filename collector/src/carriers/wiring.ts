// Where a tracked number's calls, their outcome and its messages must go: the collector's own
// Twilio doors at PUBLIC_URL (or where it listens, without it).
import type { Wiring } from './carrier.ts';

export function twilioWiring(publicUrl: string): Wiring {
  const base = publicUrl.replace(/\/$/, '');
  return { voiceUrl: `${base}/telephony/twilio/voice`, statusCallback: `${base}/telephony/twilio/status`, smsUrl: `${base}/telephony/twilio/sms` };
}
