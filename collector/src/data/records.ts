// Stored calls and SMS as the data API shows them, each field in its own format.
import type { CallRecord, FormRecord, SmsRecord, VerdictWord } from '@ringtrail/shared';
import type { FormDoc } from '../forms/documents.ts';
import type { CallDoc, CallVerdict, Marks, SmsDoc } from '../telephony/documents.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { destinationShown, maskCaller } from '../domains/caller-privacy.ts';
import { countryOf, nationalOf } from '../domains/phone-numbers.ts';
import { localTime } from '../domains/time-zone.ts';

/** `linkBase`: where the collector is reached (PUBLIC_URL, or the request's origin), for the recording's
 * link; `transcript`: the call's transcript text, when it has one (transcripts/, read by transcript-texts.ts). */
export function callRecord(call: CallDoc, domain: DomainDoc, linkBase: string, transcript: string | null = null): CallRecord {
  // The numbers are put back in the body's own places: `tracking_number` and `phone` stay its first fields.
  return {
    ...callRecordHead(call.startedAt, call.caller, domain),
    ...callRecordBody(call),
    ...callNumbersIn(call.trackingNumber, call.destination, countryOf(domain)),
    // A call placed goes to the person: their number masked as a caller's.
    ...(call.direction === 'outbound' ? { phone: destinationShown(call, domain.callerPrivacy, (n) => nationalOf(n, countryOf(domain))) ?? '' } : {}),
    recording: recordingLink(call._id, hasStoredRecording(call), linkBase),
    ...transcriptFields(transcribedLabels(call), transcript),
  };
}

/** The labels heard in a call that has a transcript, or null when it has none. */
export const transcribedLabels = (call: Pick<CallDoc, 'transcript'>): string[] | null => (call.transcript?.status === 'ready' ? call.transcript.keyPhrases : null);

/** Ours, the record's last fields: the transcript's text and labels, both null without one. */
export function transcriptFields(labels: string[] | null, text: string | null): Pick<CallRecord, 'transcript' | 'key_phrases'> {
  return labels === null ? { transcript: null, key_phrases: null } : { transcript: text ?? '', key_phrases: labels };
}

export const hasStoredRecording = (call: Pick<CallDoc, 'recording'>) => call.recording?.status === 'stored';

/** Ours: where the data API serves a call's stored recording, to the same `api_key`; null when it has none. */
export function recordingLink(callId: number, stored: boolean, linkBase: string): string | null {
  return stored ? `${linkBase}/data-api/calls/${callId}/recording` : null;
}

/** The fields shown as the domain's settings say: the start in its time zone, the caller as its
 * privacy lets, in its country's national form. */
export function callRecordHead(startedAt: Date, caller: string | null, domain: DomainDoc): Pick<CallRecord, 'start_date' | 'caller'> {
  const { day, time } = localTime(startedAt, domain.timeZone);
  return { start_date: `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)} ${time}`, caller: maskCaller(shownIn(caller, domain), domain.callerPrivacy) };
}

/** The call's tracking number and destination in the national form of the domain's country: a French
 * domain's as stored (`callRecordBody` renders them so, for every domain). */
export function callNumbersIn(trackingNumber: string, destination: string | null, country: string): Pick<CallRecord, 'tracking_number' | 'phone'> {
  return { tracking_number: nationalOf(trackingNumber, country), phone: destination === null ? '' : nationalOf(destination, country) };
}

const shownIn = (phone: string | null, domain: DomainDoc) => (phone === null ? null : nationalOf(phone, countryOf(domain)));

/** The fields that depend on the call alone (kept rendered in the page buckets, call-pages.ts). */
export function callRecordBody(call: CallDoc): Omit<CallRecord, 'start_date' | 'caller'> {
  return {
    tracking_number: call.trackingNumber,
    phone: call.destination ?? '',
    trigger_type: call.triggerType,
    source: call.source ?? '',
    url: call.url ?? '',
    referer: call.referrer ?? '',
    keyword: call.keyword ?? '',
    call_path: call.callPath ?? '',
    status: call.status ?? '',
    duration: call.duration,
    billing_duration: call.billingDuration,
    revenue: call.revenue,
    postcode: call.postcode ?? '',
    keypad: call.keypad ?? '',
    is_redirect: call.isRedirect,
    expired_redirect: call.expiredRedirect,
    answer_time: call.answerTime,
    ...(call.visitId !== null ? { visit_id: String(call.visitId) } : {}),
    ...(call.gclid ? { gclid: call.gclid } : {}),
    // Ours, present only when known, as gclid is.
    ...(call.msclkid ? { msclkid: call.msclkid } : {}),
    ...(call.fbclid ? { fbclid: call.fbclid } : {}),
    ...(call.clientData !== null && call.clientData !== undefined ? { client_data: typeof call.clientData === 'string' ? call.clientData : JSON.stringify(call.clientData) } : {}),
    // Ours, not the spec's: how sure the attribution is (telephony/call-match.ts).
    ...(call.matchConfidence ? { match_confidence: call.matchConfidence, match_candidates: call.matchCandidates ?? 0 } : {}),
    // Ours: the caller's first call to the domain (null: anonymous, or stored before it was kept).
    first_call: call.firstCall ?? null,
    // Ours: a lead by the domain's rule or a person's verdict; null while the call goes on.
    lead: call.lead ?? null,
    // Ours: the visitor's first touch (tracking/touches.ts); the spec's `source` stays the calling visit's.
    first_touch_source: call.firstTouch?.source ?? null,
    first_touch_keyword: call.firstTouch?.keyword ?? null,
    first_touch_at: call.firstTouch ? utcSeconds(call.firstTouch.at) : null,
    // Ours: the stable id to deduplicate on, and a person's verdict.
    call_id: call._id,
    // A person's, as ever: a rule's verdict shows in `lead` (and on the call's page).
    verdict: verdictWord(call.verdict && !call.verdict.rule ? call.verdict.value : null),
    // Ours: the campaign of the visit that led to the call (its first page's utm_campaign).
    utm_campaign: call.lastTouch?.campaign ?? null,
    // Ours: the person the call is one of (people/), shared with their form submissions.
    person_id: call.personId ?? null,
    // Ours (rules/): its tags and a lead's value, by a person or a rule.
    tags: call.tags ?? [],
    value: call.value ?? null,
    // Ours (ads/): where its lead is with each ad platform, once it was queued for one.
    ...adsConversionsOf(call),
    // Ours (crm/): its records in the team's CRM, once it was sent to one.
    ...crmOf(call),
    // Ours (issue 68): a call a member placed from the back end; absent on calls received.
    ...(call.direction === 'outbound' ? { direction: 'outbound' as const, placed_by: call.outbound?.by ?? null } : {}),
    // Ours (flows/): its way through its call flow, only for a call that went through one.
    ...flowFields(call),
    // Ours (analysis/): what the language model read in it, once analysed.
    ...analysisFields(call),
  };
}

/** `analysis`, only for a call analysed (issue 66): its answers, the quotes kept on the call's page. */
export function analysisFields({ analysis: a }: Pick<CallDoc, 'analysis'>): Pick<CallRecord, 'analysis'> {
  if (a?.status !== 'ready') return {};
  return {
    analysis: {
      summary: a.summary ?? '',
      intent: a.intent ?? '',
      outcomes: Object.fromEntries(Object.entries(a.outcomes ?? {}).map(([name, j]) => [name, j.answer])),
      lead_score: a.leadScore ?? 0,
      sentiment: a.sentiment ?? 'neutral',
      answers: (a.answers ?? []).map((q) => ({ question: q.question, answer: q.answer })),
    },
  };
}

/** `flow_path`, `answered_by` and the `outcome` of a voicemail or an abandoned call (with where it
 * was abandoned), only for a call that went through a flow. */
export function flowFields(call: Pick<CallDoc, 'flowId' | 'flowPath' | 'answeredBy' | 'voicemail' | 'abandoned'>): Pick<CallRecord, 'flow_path' | 'answered_by' | 'outcome' | 'abandoned'> {
  if (!call.flowId) return {};
  return {
    flow_path: (call.flowPath ?? []).map(({ at, ...entry }) => ({ ...entry, at: utcSeconds(at) })),
    answered_by: call.answeredBy?.name ?? null,
    ...(call.voicemail ? { outcome: 'voicemail' as const } : call.abandoned ? { outcome: 'abandoned' as const, abandoned: call.abandoned } : {}),
  };
}

/** `not-lead` (the back end's) is `not_lead` in records and files, like the spec's own words. */
export function verdictWord(verdict: CallVerdict['value'] | null): VerdictWord | null {
  return verdict === null ? null : verdict === 'not-lead' ? 'not_lead' : verdict;
}

/** A lead's conversions as records show them, `ads_conversions: [{platform, state, at, reason?}]`;
 * absent until the lead was queued for a platform (a domain connected to none keeps its records' shape). */
const adsConversionsOf = (item: Marks) => (item.adsConversions?.length ? { ads_conversions: item.adsConversions.map(({ platform, state, at, reason }) => ({ platform, state, at: utcSeconds(at), ...(reason ? { reason } : {}) })) } : {});

/** Its records in the team's CRM, `crm: [{crm, object, id, state}]`; absent until it was sent to one. */
const crmOf = (item: Marks) => (item.crmRecords?.length ? { crm: item.crmRecords.map(({ crm, object, id, state }) => ({ crm, object, id, state })) } : {});

/** ISO 8601 in UTC, to the second. */
const utcSeconds = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;

/** Ours: a form submission as the data API shows it. */
export function formRecord(form: FormDoc, domain: DomainDoc): FormRecord {
  return {
    form_id: form._id,
    start_date: callRecordHead(form.submittedAt, null, domain).start_date,
    source: form.source ?? '',
    keyword: form.keyword ?? '',
    page_url: form.pageUrl,
    form_name: form.formName,
    fields: form.fields,
    lead: form.lead,
    spam: form.spam,
    visit_id: form.visitId === null ? null : String(form.visitId),
    gclid: form.gclid,
    person_id: form.personId,
    tags: form.tags ?? [],
    value: form.value ?? null,
    ...adsConversionsOf(form),
    ...crmOf(form),
  };
}

export function smsRecord(sms: SmsDoc, domain: DomainDoc): SmsRecord {
  const { day, time } = localTime(sms.sentAt, domain.timeZone);
  return {
    sent_date: `${day} ${time}`,
    caller_phone: maskCaller(shownIn(sms.caller, domain), domain.callerPrivacy),
    tracking_phone: nationalOf(sms.trackingNumber, countryOf(domain)),
    id: sms._id,
    message_content: sms.message,
  };
}
