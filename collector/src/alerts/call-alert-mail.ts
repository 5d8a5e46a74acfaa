// The mail of one person's gathered call alerts of one kind and domain: the subject says what
// happened (`Missed call from 06 11 22 33 44 (acme.example)`, `Missed calls: 3 (acme.example)`,
// `New lead: form from ada@example.com (acme.example)`), the body each call with its time, caller
// (as the domain's privacy allows), where they came from and a link to its page, and each form
// submission that is a lead with its page, source and fields; a plain-text part says the same.
import { OUTCOME_WORDS, outcomeShown } from '../telephony/outcome.ts';
import { when, localeOf, type Clock } from '../domains/dates.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { callerWritten, displayOf } from '../domains/phone-display.ts';
import { facts, html, mailPage } from '../mail/layout.ts';
import { unsubscribeHeaders, type MailBody, type MailKind } from '../mail/message.ts';
import type { FormDoc } from '../forms/documents.ts';
import type { CallDoc } from '../telephony/documents.ts';
import { cameFrom } from '../telephony/whisper.ts';
import type { AlertText, CallAlert, PendingAlert } from './documents.ts';
import { CHOICE_NAMES } from './unsubscribe.ts';

export const MAIL_KIND_OF: Record<PendingAlert, MailKind> = { missedCall: 'missed-call', voicemailTranscript: 'missed-call', newLead: 'new-lead', firstCaller: 'first-caller', spamBlocked: 'spam-blocked', newText: 'new-text', rule: 'rule' };

type Worded = Exclude<PendingAlert, 'rule'>;

/** The subject's words: one call, or several. */
const SUBJECTS: Record<Worded, [string, string]> = {
  missedCall: ['Missed call from', 'Missed calls:'],
  voicemailTranscript: ['Voicemail transcribed, from', 'Voicemails transcribed:'],
  newLead: ['New lead:', 'New leads:'],
  firstCaller: ['First-time caller:', 'First-time callers:'],
  spamBlocked: ['Spam blocked:', 'Spam blocked, calls:'],
  newText: ['New text from', 'New texts:'],
};

const HEADINGS: Record<Worded, string> = { missedCall: 'Nobody answered', voicemailTranscript: 'A voicemail, transcribed', newLead: 'A new lead', firstCaller: 'Someone called for the first time', spamBlocked: 'A blocked caller called', newText: 'Someone texted' };

/** Calls a mail lists at most (a burst's mail says how many more, with a link to the calls log). */
const LISTED = 50;
/** A form's fields a mail shows at most, each cut at this many characters (the page has them whole). */
const FIELDS = 12;
const FIELD_CHARS = 300;


export interface CallAlertMail {
  alert: PendingAlert;
  /** A rule's mail (alert `rule`): the rule's name. */
  ruleName?: string;
  to: string;
  domain: Pick<DomainDoc, '_id' | 'timeZone' | 'country' | 'callerPrivacy'>;
  calls: CallDoc[];
  /** Form submissions that became leads (a `newLead` mail lists them beside the calls). */
  forms?: FormDoc[];
  /** Texts received (a `newText` mail). */
  texts?: AlertText[];
  publicUrl: string;
  unsubscribeUrl: string;
  /** Ours (issue 80): what a mail says of each voicemail among `calls`, by call id. */
  voicemails?: Map<number, VoicemailLeft>;
}

/** A voicemail as its mail says it: the message's length, its transcript (or that one is being
 * made, then a second mail follows), the analysis's summary, a link that plays it. */
export interface VoicemailLeft {
  seconds: number | null;
  transcript: string | null;
  transcriptComing: boolean;
  /** Why its transcript could not be made, when it could not. */
  transcriptFailed: string | null;
  summary: string | null;
  listenUrl: string | null;
}

/** A mail's rows about a voicemail. */
function voicemailRows(v: VoicemailLeft): [string, string][] {
  return [
    ['Voicemail', v.seconds ? `left, ${v.seconds} s` : 'left'],
    ...(v.transcript !== null ? [['Transcript', v.transcript || '(nothing was said)'] as [string, string]] : v.transcriptFailed ? [['Transcript', `could not be made: ${v.transcriptFailed}`] as [string, string]] : v.transcriptComing ? [['Transcript', 'being made: a second mail follows once it is ready'] as [string, string]] : []),
    ...(v.summary ? [['Summary', v.summary] as [string, string]] : []),
    ...(v.listenUrl ? [['Listen', v.listenUrl] as [string, string]] : []),
  ];
}

/** One call or form submission as a mail lists it: who, its facts, and the page it links to. */
interface Listed {
  at: Date;
  who: string;
  rows: [string, string][];
  url: string;
  kind: 'call' | 'form' | 'conversation';
}

/** A mail's words: its subject's start for one item and for several, its heading, why it is sent. */
function wordsOf(alert: PendingAlert, ruleName: string | undefined, domainId: string): { one: string; many: string; heading: string; noun?: string; footer: string } {
  if (alert === 'rule') {
    const name = ruleName ?? 'a rule';
    return { one: `Rule ${name} matched:`, many: `Rule ${name} matched:`, heading: `Rule ${name} matched`, noun: 'matches', footer: `You receive this because the rule ${name} on ${domainId} mails you (its owners and admins choose whom, under Rules).` };
  }
  const [one, many] = SUBJECTS[alert];
  const choice = alert === 'voicemailTranscript' ? 'missedCall' : alert;
  return { one, many, heading: HEADINGS[alert], footer: `You receive this because ${CHOICE_NAMES[choice]} for ${domainId} are on for you in RingTrail (Profile).` };
}

export function callAlertMail({ alert, ruleName, to, domain, calls, forms = [], texts = [], publicUrl, unsubscribeUrl, voicemails = new Map() }: CallAlertMail): MailBody {
  const words = wordsOf(alert, ruleName, domain._id);
  const country = domain.country ?? 'FR';
  const clock: Clock = { timeZone: domain.timeZone, locale: localeOf(country) };
  const screen = (path: string) => `${publicUrl}/manage/#/${encodeURIComponent(domain._id)}/${path}`;
  const callerOf = (call: CallDoc) => callerWritten(call.caller, domain);
  // What happened, in words; a number nobody held said as such, beside it.
  const outcomeWords = (call: CallDoc) => {
    const { outcome, unattributed } = outcomeShown(call);
    const words = call.voicemail ? `${OUTCOME_WORDS[outcome ?? ''] ?? 'Missed'}: voicemail left` : call.abandoned ? `Abandoned: the caller hung up at ${call.abandoned.name ?? call.abandoned.step} after ${call.abandoned.seconds} s, before any phone rang` : outcome === 'SUCCESS' ? `Answered, ${call.duration} s` : outcome === 'CALLER_PHONE_BLACKLISTED' ? 'Refused: the caller is blocked' : outcome ? (OUTCOME_WORDS[outcome] ?? outcome) : 'Going on';
    return unattributed ? `${words} (a number nobody held: not attributed)` : words;
  };
  const callItem = (call: CallDoc): Listed => ({
    at: call.startedAt,
    who: callerOf(call),
    rows: [
      ['When', when(call.startedAt.toISOString(), clock)],
      ['Caller', callerOf(call)],
      ['Number called', displayOf(call.trackingNumber, country)],
      ['Came from', call.source === null && !call.offlineDescription ? 'unknown: no visit led to this call' : cameFrom(call)],
      ['Outcome', outcomeWords(call)],
      ...(voicemails.has(call._id) ? voicemailRows(voicemails.get(call._id)!) : []),
    ],
    url: screen(`call?id=${call._id}`),
    kind: 'call',
  });
  // A form's fields as the visitor typed them (the page escapes them, like every value).
  const formItem = (form: FormDoc): Listed => ({
    at: form.submittedAt,
    who: `form from ${form.email ?? (form.phone ? displayOf(form.phone, country) : 'a visitor')}`,
    rows: [
      ['When', when(form.submittedAt.toISOString(), clock)],
      ['Form on', pathOf(form.pageUrl)],
      ['Came from', cameFrom({ source: form.source, keyword: form.keyword, offlineDescription: null })],
      ...Object.entries(form.fields).slice(0, FIELDS).map(([name, value]): [string, string] => [name, value.length > FIELD_CHARS ? `${value.slice(0, FIELD_CHARS)}…` : value]),
    ],
    url: form.personId !== null ? screen(`person?id=${form.personId}`) : screen('forms'),
    kind: 'form',
  });
  // A text's words as the texter wrote them (the page escapes them, like every value).
  const textItem = (text: AlertText): Listed => ({
    at: text.at,
    who: callerWritten(text.from, domain),
    rows: [
      ['When', when(text.at.toISOString(), clock)],
      ['From', callerWritten(text.from, domain)],
      ['Number texted', displayOf(text.trackingNumber, country)],
      ['Text', text.body],
    ],
    url: screen(`inbox?id=${encodeURIComponent(text.conversationId)}`),
    kind: 'conversation',
  });
  const items = [...calls.map(callItem), ...forms.map(formItem), ...texts.map(textItem)].sort((a, b) => a.at.getTime() - b.at.getTime());
  const noun = words.noun ?? (texts.length ? 'texts' : forms.length ? 'leads' : 'calls');
  // A rule may mail outside the team: its subject carries none of a visitor's words (a form's e-mail
  // or phone as typed), only that it was a form (issue 70).
  const whoInSubject = (item: Listed) => (alert === 'rule' && item.kind === 'form' ? 'a form' : item.who);
  const subject = items.length === 1 ? `${words.one} ${whoInSubject(items[0]!)} (${domain._id})` : `${words.many} ${items.length} (${domain._id})`;
  const listed = items.slice(0, LISTED);
  const more = items.length - listed.length;
  const callsLog = screen('calls');
  const footer = words.footer;
  const text = [
    `${words.heading} on ${domain._id}${items.length > 1 ? `: ${items.length} ${noun}` : ''}.`,
    '',
    ...listed.flatMap((item) => [...item.rows.map(([label, value]) => `${label}: ${value}`), `The ${item.kind}: ${item.url}`, '']),
    ...(more ? [`And ${more} more: ${callsLog}`, ''] : []),
    footer,
    `Unsubscribe: ${unsubscribeUrl}`,
    '',
  ].join('\n');
  const single = items.length === 1;
  const body = html`${listed.map((item) => html`${facts(item.rows)}${single ? '' : html`<p style="margin:0 0 16px"><a href="${item.url}">Open this ${item.kind}</a></p>`}`)}${more ? html`<p style="margin:0 0 16px">And ${more} more: see the calls log.</p>` : ''}`;
  return {
    to,
    subject,
    text,
    html: mailPage({
      heading: `${words.heading}${single ? '' : `: ${items.length} ${noun}`}`,
      body,
      link: single ? { url: items[0]!.url, label: `Open the ${items[0]!.kind}` } : { url: callsLog, label: 'Open the calls log' },
      footer,
      unsubscribeUrl,
    }),
    headers: unsubscribeHeaders(unsubscribeUrl),
  };
}

/** A page's path, or the address whole when it is not one. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
