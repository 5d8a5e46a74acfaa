// What follows a stored call's or form's change, across the families: the house wires each family's
// part into telephony's CallWrites and forms' FormWrites, which know none of them.
import { CallAlerts } from '../alerts/call-alerts.ts';
import { DEFAULT_GA4_ENDPOINT } from '../analytics/ga4.ts';
import { CallSummaries } from './call-summaries.ts';
import type { FormDoc } from '../forms/documents.ts';
import { FormWrites, type FormReaction } from '../forms/form-writes.ts';
import { formContact, PersonContacts } from '../people/person-contacts.ts';
import { FormSources } from '../reports/form-sources.ts';
import { CallWrites, type CallReaction } from '../telephony/call-writes.ts';
import type { CallDoc } from '../telephony/documents.ts';
import { LeadEvents } from '../telephony/lead-events.ts';
import { CallPush } from '../data/call-push.ts';
import { TranscriptQueue } from '../transcripts/transcript-queue.ts';
import { TranscriptStore } from '../transcripts/transcript-store.ts';
import { RuleRunner } from '../rules/rule-runner.ts';
import { AdsQueue } from '../ads/ads-queue.ts';
import { leadMarks } from '../ads/lead-marks.ts';
import { Outbox } from '../webhooks/outbox.ts';
import { RuleMails } from '../alerts/rule-mails.ts';
import type { AllCollections } from './all-collections.ts';
import { AnalysisQueue } from '../analysis/analysis-queue.ts';
import { CrmQueue } from '../crm/crm-queue.ts';
import { TextBackQueue } from '../texting/text-back.ts';

export interface CallWriteOptions {
  ga4Endpoint?: string;
  /** New leads and missed calls raise e-mail alerts (where mail is configured). */
  alerts?: boolean;
  /** Where people reach the collector: the links of the `call` push. */
  publicUrl?: string;
  /** A speech-to-text engine is configured (TRANSCRIBE_URL): stored recordings are queued for transcripts. */
  transcribe?: boolean;
  /** A language model is configured (ANALYZE_URL): transcribed calls are queued for their analysis. */
  analyze?: boolean;
  /** The domains' rules at a call's moments (wireWrites), after the others. */
  rules?: CallReaction;
}

/** The call writes, and the transcripts' store that writes through them. */
export interface WiredCallWrites {
  writes: CallWrites;
  transcripts: TranscriptStore;
}

/** A call's summaries first (the others read them), then its push, its lead's GA4 event, its alerts
 * and its transcript's queue. */
export function wireCallWrites(c: AllCollections, options: CallWriteOptions = {}): CallWrites {
  return wireCallWritesAndTranscripts(c, options).writes;
}

export function wireCallWritesAndTranscripts(c: AllCollections, options: CallWriteOptions = {}): WiredCallWrites {
  const { ga4Endpoint = DEFAULT_GA4_ENDPOINT, alerts = false, publicUrl, transcribe = false, analyze = false } = options;
  const analyses = new AnalysisQueue(c, analyze);
  const summaries = new CallSummaries(c);
  const pushes = new CallPush(c, publicUrl);
  const leadEvents = new LeadEvents(c, ga4Endpoint);
  const callAlerts = alerts ? new CallAlerts(c) : null;
  const ads = new AdsQueue(c, new Outbox(c), leadMarks({ calls: () => writes }));
  const crm = new CrmQueue(c, new Outbox(c));
  const textBacks = new TextBackQueue(c, new Outbox(c));
  // The store writes the call through these writes, which its queue's reaction is one of.
  const queue = new TranscriptQueue(c, transcribe, (): TranscriptStore => transcripts);
  // A call placed from the back end (issue 68) has its summaries (the data API lists it, the person's
  // timeline shows it) and its transcript, and nothing else: no push, lead, alert, ad platform or CRM.
  const received = (reaction: CallReaction): CallReaction => (before, after) => (after.direction === 'outbound' ? Promise.resolve() : reaction(before, after));
  const writes: CallWrites = new CallWrites(c, {
    first: (before, after) => summaries.record(before, after),
    then: [
      received((before, after) => pushes.changed(before, after)),
      received((before, after) => leadEvents.changed(before, after)),
      ...(callAlerts ? [received((before: CallDoc | null, after: CallDoc) => callAlerts.changed(before, after))] : []),
      (before, after) => queue.changed(before, after),
      received((before, after) => analyses.changed(before, after)),
      received((before, after) => ads.callChanged(before, after)),
      received((before, after) => crm.callChanged(before, after)),
      received((before, after) => textBacks.callChanged(before, after)),
      ...(options.rules ? [received(options.rules)] : []),
    ],
  });
  const transcripts: TranscriptStore = new TranscriptStore(c, writes);
  return { writes, transcripts };
}

/** A submission's report counters, its person's entries and, `alerts` set, its lead's alerts. */
export function wireFormWrites(c: AllCollections, { alerts = false, rules }: { alerts?: boolean; rules?: FormReaction } = {}): FormWrites {
  const sources = new FormSources(c);
  const people = new PersonContacts(c);
  const formAlerts = alerts ? new CallAlerts(c) : null;
  const ads = new AdsQueue(c, new Outbox(c), leadMarks({ forms: () => forms }));
  const crm = new CrmQueue(c, new Outbox(c));
  const forms: FormWrites = new FormWrites(c, [
    (before, after, timeZone) => sources.record(before, after, timeZone),
    (before, after) => people.record(before && formContact(before), formContact(after)),
    ...(formAlerts ? [(before: FormDoc | null, after: FormDoc) => formAlerts.formChanged(before, after)] : []),
    (before, after) => ads.formChanged(before, after),
    (before, after) => crm.formChanged(before, after),
    ...(rules ? [rules] : []),
  ]);
  return forms;
}

/** The app's writes: calls (with their transcripts) and forms, and the domains' rules at their
 * moments, which write through both. */
export function wireWrites(c: AllCollections, options: Omit<CallWriteOptions, 'rules'> & { publicUrl: string }): WiredCallWrites & { forms: FormWrites; rules: RuleRunner } {
  const holder: { runner?: RuleRunner } = {};
  const calls = wireCallWritesAndTranscripts(c, { ...options, rules: (before, after) => holder.runner!.callChanged(before, after) });
  const forms = wireFormWrites(c, { alerts: options.alerts ?? false, rules: (before, after) => holder.runner!.formChanged(before, after) });
  const mails = new RuleMails(c);
  holder.runner = new RuleRunner(c, calls.writes, forms, options.publicUrl, (domain, rule, about, key, now) => mails.queue(domain, rule, about, key, now));
  return { ...calls, forms, rules: holder.runner };
}
