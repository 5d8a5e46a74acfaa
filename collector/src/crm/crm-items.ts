// A call or a form submission as a CRM is told of it (issue 67): the person to find or make (their
// phone in E.164 and the domain's national form, their e-mail, the first touch's source and
// campaign) and the activity (a call, or a form as a note) with its facts in words: source, keyword,
// campaign, the model's summary or the key phrases heard, verdict, value, tags, and the call's page.
import { e164Of, nationalOf, countryOf } from '../domains/phone-numbers.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { FormDoc } from '../forms/documents.ts';
import type { CallDoc } from '../telephony/documents.ts';
import { callOutcome } from '../telephony/outcome.ts';
import { nameOf } from '../forms/names.ts';
import type { CrmActivity, CrmPerson } from './crm-client.ts';

export interface CrmItem {
  person: Omit<CrmPerson, 'ownerId'>;
  activity: Omit<CrmActivity, 'ownerId'>;
  /** The member who answered (a call flow's ring group), whose CRM user owns it. */
  answeredBy: string | null;
}

const phonesOf = (canonical: string | null, domain: DomainDoc) => (canonical ? [...new Set([e164Of(canonical), nationalOf(canonical, countryOf(domain))])] : []);

function facts(item: Pick<CallDoc, 'source' | 'keyword' | 'lastTouch' | 'tags' | 'value'> & { verdict: string | null }, domain: DomainDoc, extra: [string, string | null][]): string {
  const lines: [string, string | null][] = [
    ['Source', item.source ?? 'unattributed'],
    ['Keyword', item.keyword],
    ['Campaign', item.lastTouch?.campaign ?? null],
    ['Landing page', item.lastTouch?.landingUrl ?? null],
    ...extra,
    ['Verdict', item.verdict],
    ['Value', item.value ? `${item.value} ${domain.currency}` : null],
    ['Tags', item.tags?.length ? item.tags.join(', ') : null],
  ];
  return lines.flatMap(([name, value]) => (value ? [`${name}: ${value}`] : [])).join('\n');
}

/** `recording`: the link that plays the call's recording without a sign-in (recordings/listen-links.ts),
 * null when none is stored. HubSpot plays an HTTPS link inline as the call's recording; any link is
 * also a line of the body (Salesforce's Task description). */
export function callItem(call: CallDoc, domain: DomainDoc, publicUrl: string, recording: string | null = null): CrmItem {
  const page = `${publicUrl}/manage/#/${encodeURIComponent(domain.name)}/call?id=${call._id}`;
  const said = call.analysis?.status === 'ready' ? call.analysis.summary : null;
  const heard = call.transcript?.status === 'ready' && call.transcript.keyPhrases.length ? call.transcript.keyPhrases.join(', ') : null;
  const answered = callOutcome(call) === 'SUCCESS';
  return {
    person: { phones: phonesOf(call.caller, domain), email: null, name: null, cameBy: 'call', firstSource: (call.firstTouch ?? call.lastTouch)?.source ?? call.source, firstCampaign: (call.firstTouch ?? call.lastTouch)?.campaign ?? null },
    activity: {
      kind: 'call',
      ringtrailId: `${domain._id}:call:${call._id}`,
      at: call.startedAt,
      title: `RingTrail call ${call._id}: ${answered ? 'answered' : 'not answered'}${call.source ? `, from ${call.source}` : ''}`,
      body: facts({ ...call, verdict: call.verdict?.value ?? null }, domain, [['Summary', said ?? null], ['Key phrases', said ? null : heard], ['Answered by', call.answeredBy?.name ?? null], ['Recording', recording], ['The call in RingTrail', page]]),
      durationSeconds: call.duration,
      answered,
      from: call.caller ? e164Of(call.caller) : null,
      to: e164Of(call.trackingNumber),
      recordingUrl: recording?.startsWith('https:') ? recording : null,
      campaign: call.lastTouch?.campaign ?? null,
    },
    answeredBy: call.answeredBy?.member ?? null,
  };
}

export function formItem(form: FormDoc, domain: DomainDoc, publicUrl: string): CrmItem {
  const page = `${publicUrl}/manage/#/${encodeURIComponent(domain.name)}/form?id=${form._id}`;
  const fields = Object.entries(form.fields).map(([name, value]) => `${name}: ${value}`).join('\n');
  return {
    person: { phones: phonesOf(form.phone, domain), email: form.email, name: nameOf(form.fields), cameBy: 'form', firstSource: (form.firstTouch ?? form.lastTouch)?.source ?? form.source, firstCampaign: (form.firstTouch ?? form.lastTouch)?.campaign ?? null },
    activity: {
      kind: 'form',
      ringtrailId: `${domain._id}:form:${form._id}`,
      at: form.submittedAt,
      title: `RingTrail form ${form._id}${form.source ? `, from ${form.source}` : ''}`,
      body: `${fields}\n${facts({ ...form, verdict: form.verdict ?? null }, domain, [['The form in RingTrail', page]])}`,
      durationSeconds: 0,
      answered: false,
      from: null,
      to: '',
      recordingUrl: null,
      campaign: form.lastTouch?.campaign ?? null,
    },
    answeredBy: null,
  };
}
