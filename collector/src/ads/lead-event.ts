// A lead as the ad platforms are told of it, whatever it was: a call (at its start, with the caller's
// number) or a form submission (at its sending, with its phone and e-mail), the click ids its visit
// kept, and its value: a person's or a rule's, else the carrier's revenue of a call, in the domain's
// currency (as the conversion files value it, reports/conversion-files.ts).
import type { FormDoc } from '../forms/documents.ts';
import type { CallDoc } from '../telephony/documents.ts';

export interface LeadEvent {
  kind: 'call' | 'form';
  id: number;
  at: Date;
  value: number;
  currency: string;
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  msclkid: string | null;
  fbclid: string | null;
  /** Stored forms (canonical number, lower-case address), hashed only as each platform sends them. */
  phone: string | null;
  email: string | null;
  /** The visitor denied ad storage (Google's consent mode): no identifier of theirs is sent. */
  adsDenied: boolean;
  /** The page it came from, for Meta's event_source_url. */
  pageUrl: string | null;
  /** When the visit that kept the click ids began (Meta's fbc carries it); null when unknown. */
  clickAt: Date | null;
}

/** The transaction id a lead is sent under: the platforms keep one conversion per id. */
export const transactionIdOf = (lead: Pick<LeadEvent, 'kind' | 'id'>) => `ringtrail-${lead.kind}-${lead.id}`;

type Clicks = { gclid?: string | null; gbraid?: string | null; wbraid?: string | null; msclkid?: string | null; fbclid?: string | null; adsDenied?: boolean | null };
const clicksOf = (item: Clicks) => ({ gclid: item.gclid ?? null, gbraid: item.gbraid ?? null, wbraid: item.wbraid ?? null, msclkid: item.msclkid ?? null, fbclid: item.fbclid ?? null, adsDenied: item.adsDenied === true });

/** A call's value as its lead is sent: a person's or a rule's, else the carrier's revenue, else 0. */
export const callValue = (call: Pick<CallDoc, 'value' | 'revenue'>) => call.value ?? call.revenue ?? 0;

export function callLead(call: CallDoc & Clicks, currency: string): LeadEvent {
  return { kind: 'call', id: call._id, at: call.startedAt, value: callValue(call), currency, ...clicksOf(call), phone: call.caller, email: null, pageUrl: call.url, clickAt: call.lastTouch?.at ?? null };
}

export function formLead(form: FormDoc & Clicks, currency: string): LeadEvent {
  return { kind: 'form', id: form._id, at: form.submittedAt, value: form.value ?? 0, currency, ...clicksOf(form), phone: form.phone, email: form.email, pageUrl: form.pageUrl, clickAt: form.lastTouch?.at ?? null };
}
