// The mail of one person's gathered call alerts of one kind and domain: the subject says what
// happened (`Missed call from 06 11 22 33 44 (acme.example)`, `Missed calls: 3 (acme.example)`), the
// body each call with its time, caller (as the domain's privacy allows), where they came from and a
// link to its page; a plain-text part says the same.
import { when, localeOf, type Clock } from '../domains/dates.ts';
import { maskCaller } from '../domains/caller-privacy.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { displayOf } from '../domains/phone-display.ts';
import { facts, html, mailPage } from '../mail/layout.ts';
import { unsubscribeHeaders, type MailBody, type MailKind } from '../mail/message.ts';
import type { CallDoc } from '../telephony/documents.ts';
import { cameFrom } from '../telephony/whisper.ts';
import type { CallAlert } from './documents.ts';
import { CHOICE_NAMES } from './unsubscribe.ts';

export const MAIL_KIND_OF: Record<CallAlert, MailKind> = { missedCall: 'missed-call', newLead: 'new-lead', firstCaller: 'first-caller', spamBlocked: 'spam-blocked' };

/** The subject's words: one call, or several. */
const SUBJECTS: Record<CallAlert, [string, string]> = {
  missedCall: ['Missed call from', 'Missed calls:'],
  newLead: ['New lead:', 'New leads:'],
  firstCaller: ['First-time caller:', 'First-time callers:'],
  spamBlocked: ['Spam blocked:', 'Spam blocked, calls:'],
};

const HEADINGS: Record<CallAlert, string> = { missedCall: 'Nobody answered', newLead: 'A new lead', firstCaller: 'Someone called for the first time', spamBlocked: 'A blocked caller called' };

/** Calls a mail lists at most (a burst's mail says how many more, with a link to the calls log). */
const LISTED = 50;

const OUTCOMES: Record<string, string> = { BUSY: 'Busy', NORESPONSE: 'No answer', SUCCESS: 'Answered', CALLER_PHONE_BLACKLISTED: 'Refused: the caller is blocked' };

export interface CallAlertMail {
  alert: CallAlert;
  to: string;
  domain: Pick<DomainDoc, '_id' | 'timeZone' | 'country' | 'callerPrivacy'>;
  calls: CallDoc[];
  publicUrl: string;
  unsubscribeUrl: string;
}

export function callAlertMail({ alert, to, domain, calls, publicUrl, unsubscribeUrl }: CallAlertMail): MailBody {
  const country = domain.country ?? 'FR';
  const clock: Clock = { timeZone: domain.timeZone, locale: localeOf(country) };
  const callerOf = (call: CallDoc) => (call.caller && domain.callerPrivacy === 'none' ? displayOf(call.caller, country) : maskCaller(call.caller, domain.callerPrivacy));
  const pageOf = (call: CallDoc) => `${publicUrl}/manage/#/${encodeURIComponent(domain._id)}/call?id=${call._id}`;
  const [one, many] = SUBJECTS[alert];
  const subject = calls.length === 1 ? `${one} ${callerOf(calls[0]!)} (${domain._id})` : `${many} ${calls.length} (${domain._id})`;
  const rows = (call: CallDoc): [string, string][] => [
    ['When', when(call.startedAt.toISOString(), clock)],
    ['Caller', callerOf(call)],
    ['Number called', displayOf(call.trackingNumber, country)],
    ['Came from', cameFrom(call)],
    ['Outcome', call.status === 'SUCCESS' ? `Answered, ${call.duration} s` : (OUTCOMES[call.status ?? ''] ?? call.status ?? 'Going on')],
  ];
  const listed = calls.slice(0, LISTED);
  const more = calls.length - listed.length;
  const callsLog = `${publicUrl}/manage/#/${encodeURIComponent(domain._id)}/calls`;
  const footer = `You receive this because ${CHOICE_NAMES[alert]} for ${domain._id} are on for you in RingTrail (Profile).`;
  const text = [
    `${HEADINGS[alert]} on ${domain._id}${calls.length > 1 ? `: ${calls.length} calls` : ''}.`,
    '',
    ...listed.flatMap((call) => [...rows(call).map(([label, value]) => `${label}: ${value}`), `The call: ${pageOf(call)}`, '']),
    ...(more ? [`And ${more} more: ${callsLog}`, ''] : []),
    footer,
    `Unsubscribe: ${unsubscribeUrl}`,
    '',
  ].join('\n');
  const single = calls.length === 1;
  const body = html`${listed.map((call) => html`${facts(rows(call))}${single ? '' : html`<p style="margin:0 0 16px"><a href="${pageOf(call)}">Open this call</a></p>`}`)}${more ? html`<p style="margin:0 0 16px">And ${more} more: see the calls log.</p>` : ''}`;
  return {
    to,
    subject,
    text,
    html: mailPage({
      heading: `${HEADINGS[alert]}${single ? '' : `: ${calls.length} calls`}`,
      body,
      link: single ? { url: pageOf(calls[0]!), label: 'Open the call' } : { url: callsLog, label: 'Open the calls log' },
      footer,
      unsubscribeUrl,
    }),
    headers: unsubscribeHeaders(unsubscribeUrl),
  };
}
