// The calls log: a domain's calls of a range of local days, newest first, each with what led to it;
// the same as CSV (the ad platforms' conversion files are conversion-files.ts).
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { AdsCollections } from '../ads/documents.ts';
import { retryingJobs, type RetryingJob } from './retrying-jobs.ts';
import type { CallStatus } from '@ringtrail/shared';
import { ANALYSIS_OUTCOMES, type CallDoc, type TelephonyCollections } from '../telephony/documents.ts';
import { verdictWord } from '../data/records.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { destinationShown, maskCaller } from '../domains/caller-privacy.ts';
import { countryOf, nationalOf } from '../domains/phone-numbers.ts';
import { callsPhoneDisplay } from '../domains/phone-display.ts';
import { localDaysBetween, localTime } from '../domains/time-zone.ts';
import { BlockedCallers } from '../telephony/blocked-callers.ts';
import { endedFilter, outcomeApart, type Ended } from '../telephony/outcome.ts';
import { directionFilter } from '../telephony/directions.ts';
import { UNATTRIBUTED } from './call-sources.ts';
import type { DayRange } from './day-range.ts';
import { csvLine } from './csv.ts';

export const LOG_PAGE_SIZE = 50;
/** A CSV export stops there: a bigger one is the data API's job. */
export const CSV_MAX_ROWS = 100_000;

export interface CallFilters {
  status?: CallStatus | 'ONGOING';
  /** A source class: `paid`, `organic`... or `unattributed`. */
  source?: string;
  trackingNumber?: string;
  /** Only the callers' first calls (true), or only repeat calls (false). */
  firstCall?: boolean;
  /** Only leads (true), or only calls that are not (false). */
  lead?: boolean;
  /** Only calls marked spam (true), or only the calls the overview counts: neither spam nor a
   * blocked caller's (false). */
  spam?: boolean;
  /** Only these calls (those whose transcripts say what the log's search asked for). */
  callIds?: number[];
  /** Only the calls with this tag (rules/). */
  tag?: string;
  /** Only the calls a flow's ring group rang that this member or number answered (its name), or that nobody answered (`nobody`). */
  answeredBy?: string;
  /** Only the calls whose analysis says yes to this outcome (analysis/answer.ts). */
  outcome?: string;
  /** `outbound`: the calls members placed from the back end; absent: the calls received (telephony/directions.ts). */
  direction?: 'outbound';
  /** Ours (issue 80): only the calls that ended so: answered, missed, abandoned, voicemail (telephony/outcome.ts). */
  ended?: Ended;
  /** Only the calls whose analysis scored the lead within these bounds. */
  scoreMin?: number;
  scoreMax?: number;
}

/** The calls log's filter of calls rung through a flow that nobody answered. */
export const NOBODY = 'nobody';

export interface CallRow {
  callId: number;
  startedAt: string; // local `YYYY-MM-DD HH:MM:SS`
  trackingNumber: string;
  caller: string;
  destination: string | null;
  status: CallStatus | 'ONGOING';
  /** Ours: what happened to the call (telephony/outcome.ts), where `status` hides it (a number nobody
   * held); absent where it is the status. */
  outcome?: CallStatus | 'ONGOING' | 'voicemail' | 'abandoned';
  /** Ours (issue 80): where and after how long the caller of an abandoned call hung up. */
  abandoned?: { step: string; name?: string; kind: string; seconds: number };
  /** Ours (flows/): who answered a call rung through a flow's ring group (a member's name or the number), null: nobody; absent for a call that went through no flow. */
  answeredBy?: string | null;
  /** Ours (issue 68): a call a member placed from the back end, and who; absent on calls received. */
  direction?: 'outbound';
  placedBy?: string;
  /** Ours (analysis/): the language model's summary and lead score, and the outcomes it said yes to; absent until the call is analysed. */
  analysis?: { summary: string; leadScore: number; outcomes: string[] };
  duration: number;
  source: string | null;
  keyword: string | null;
  landingPage: string | null;
  pagesSeen: string[];
  gclid: string | null;
  offlineDescription: string | null;
  agent: string | null;
  revenue: number;
  /** How sure the visit match is (telephony/call-match.ts); null for offline numbers. */
  matchConfidence: CallDoc['matchConfidence'];
  matchCandidates: number | null;
  /** The caller's first call to the domain; null: anonymous, or stored before it was kept. */
  firstCall: boolean | null;
  /** A lead by the rule or the verdict; null while the call goes on. */
  lead: boolean | null;
  /** A person's word on the call, which `lead` follows; null: none. */
  verdict: 'lead' | 'not-lead' | 'spam' | null;
  /** Ours, like gclid: Microsoft Advertising's and Meta's click ids. */
  msclkid: string | null;
  fbclid: string | null;
  /** Ours (tracking/touches.ts): the source, keyword and local start of the visitor's first visit of
   * the 90 days before the call, and the source of their latest visit that was not direct. */
  firstTouchSource: string | null;
  firstTouchKeyword: string | null;
  firstTouchAt: string | null;
  lastNonDirectSource: string | null;
  /** Ours (recordings/): whether the call has a recording (`stored`: GET …/calls/{id}/recording plays it), is being fetched, could not be (why), or was deleted. */
  recording: { status: 'fetching' | 'stored' | 'failed' | 'deleted'; duration: number | null; error?: string } | null;
  /** Ours (transcripts/): whether the call has a transcript (`ready`), could not have one (why), or lost it with its recording; and the labels heard. */
  transcript: { status: 'ready' | 'failed' | 'deleted'; keyPhrases: string[]; error?: string } | null;
  /** Ours (rules/): the rule that gave the verdict, when a rule did; the call's tags and value. */
  verdictRule: string | null;
  tags: string[];
  value: number | null;
}

export function filterOf(domain: DomainDoc, range: DayRange, filters: CallFilters): Record<string, unknown> {
  return {
    domainId: domain._id,
    startedAt: localDaysBetween(range.from, range.to, domain.timeZone),
    ...directionFilter(filters.direction),
    ...(filters.status ? { status: filters.status === 'ONGOING' ? null : filters.status } : {}),
    ...sourceFilter(filters.source),
    ...(filters.trackingNumber ? { trackingNumber: filters.trackingNumber } : {}),
    ...(filters.callIds ? { _id: { $in: filters.callIds } } : {}),
    ...(filters.tag ? { tags: filters.tag } : {}),
    ...(filters.outcome ? { [`analysis.outcomes.${filters.outcome}.answer`]: 'yes' } : {}),
    ...(filters.scoreMin !== undefined || filters.scoreMax !== undefined ? { 'analysis.leadScore': { ...(filters.scoreMin !== undefined ? { $gte: filters.scoreMin } : {}), ...(filters.scoreMax !== undefined ? { $lte: filters.scoreMax } : {}) } } : {}),
    ...(filters.answeredBy === NOBODY ? { flowId: { $exists: true }, answeredBy: null } : filters.answeredBy ? { 'answeredBy.name': filters.answeredBy } : {}),
    ...(filters.ended ? endedFilter(filters.ended) : {}),
    ...(filters.firstCall !== undefined ? { firstCall: filters.firstCall } : {}),
    ...(filters.lead !== undefined ? { lead: filters.lead } : {}),
    ...(filters.spam === true ? { 'verdict.value': 'spam' } : filters.spam === false ? { $nor: [{ 'verdict.value': 'spam' }, { status: 'CALLER_PHONE_BLACKLISTED' }] } : {}),
  };
}

/** Calls or form submissions of a source class (`paid` of `paid:google`), or of none (`unattributed`). */
export function sourceFilter(source: string | undefined): { source?: null | { $regex: string } } {
  if (!source) return {};
  return source === UNATTRIBUTED ? { source: null } : { source: { $regex: `^${source.replace(/[^a-z]/g, '')}(:|$)` } };
}

export function rowOf(call: CallDoc, domain: DomainDoc): CallRow {
  const local = (at: Date) => {
    const { day, time } = localTime(at, domain.timeZone);
    return `${day} ${time}`;
  };
  return {
    callId: call._id,
    startedAt: local(call.startedAt),
    // In the national form of the domain's country, as its people write them (a French domain's as stored).
    trackingNumber: nationalOf(call.trackingNumber, countryOf(domain)),
    caller: maskCaller(call.caller && nationalOf(call.caller, countryOf(domain)), domain.callerPrivacy),
    destination: destinationShown(call, domain.callerPrivacy, (n) => nationalOf(n, countryOf(domain))),
    status: call.status ?? 'ONGOING',
    ...(call.voicemail ? { outcome: 'voicemail' as const } : call.abandoned ? { outcome: 'abandoned' as const, abandoned: call.abandoned } : outcomeApart(call)),
    ...(call.flowId ? { answeredBy: call.answeredBy?.name ?? null } : {}),
    ...(call.direction === 'outbound' ? { direction: 'outbound' as const, placedBy: call.outbound?.by ?? '' } : {}),
    ...(call.analysis?.status === 'ready' ? { analysis: { summary: call.analysis.summary ?? '', leadScore: call.analysis.leadScore ?? 0, outcomes: Object.entries(call.analysis.outcomes ?? {}).flatMap(([name, j]) => (j.answer === 'yes' ? [name] : [])) } } : {}),
    duration: call.duration,
    source: call.source,
    keyword: call.keyword,
    landingPage: call.url,
    pagesSeen: call.callPath ? call.callPath.split('\n') : [],
    gclid: call.gclid,
    offlineDescription: call.offlineDescription,
    agent: call.agent ?? null,
    revenue: call.revenue,
    matchConfidence: call.matchConfidence ?? null,
    matchCandidates: call.matchCandidates ?? null,
    firstCall: call.firstCall ?? null,
    lead: call.lead ?? null,
    verdict: call.verdict?.value ?? null,
    msclkid: call.msclkid ?? null,
    fbclid: call.fbclid ?? null,
    firstTouchSource: call.firstTouch?.source ?? null,
    firstTouchKeyword: call.firstTouch?.keyword ?? null,
    firstTouchAt: call.firstTouch ? local(call.firstTouch.at) : null,
    lastNonDirectSource: call.lastNonDirect?.source ?? null,
    recording: call.recording ? { status: call.recording.status, duration: call.recording.duration, ...(call.recording.error ? { error: call.recording.error } : {}) } : null,
    transcript: call.transcript ? { status: call.transcript.status, keyPhrases: call.transcript.keyPhrases, ...(call.transcript.error ? { error: call.transcript.error } : {}) } : null,
    verdictRule: call.verdict?.rule ? call.verdict.by.replace(/^rule /, '') : null,
    tags: call.tags ?? [],
    value: call.value ?? null,
  };
}

/** The log counts its calls up to this many (a count reads each one): beyond, "100,000 or more". */
export const LOG_COUNT_LIMIT = 100_000;

/** One page of the log, newest first, each call with the jobs being retried for it (retrying-jobs.ts), whether there is a next one, and how many calls the filters
 * give in all (`total`, at most LOG_COUNT_LIMIT: `totalCapped` then). `callerBlocked`: the caller is
 * on the blocklist now (the log's block and unblock action). */
export async function callsPage(c: TelephonyCollections & WebhookCollections & AdsCollections, domain: DomainDoc, range: DayRange, filters: CallFilters, page: number): Promise<{ calls: (CallRow & { callerBlocked: boolean; retrying: RetryingJob[] })[]; page: number; pageSize: number; hasMore: boolean; total: number; totalCapped: boolean }> {
  const filter = filterOf(domain, range, filters);
  const [calls, total] = await Promise.all([
    c.calls.find(filter, { sort: { startedAt: -1, _id: -1 }, skip: (page - 1) * LOG_PAGE_SIZE, limit: LOG_PAGE_SIZE + 1 }).toArray(),
    c.calls.countDocuments(filter, { limit: LOG_COUNT_LIMIT }),
  ]);
  const shown = calls.slice(0, LOG_PAGE_SIZE);
  const callers = [...new Set(shown.flatMap((call) => (call.caller ? [call.caller] : [])))];
  const [blocked, retrying] = await Promise.all([new BlockedCallers(c).blockedAmong(domain._id, callers), retryingJobs(c, 'call', shown.map((call) => call._id), domain.timeZone)]);
  return {
    calls: shown.map((call) => ({ ...rowOf(call, domain), callerBlocked: call.caller !== null && blocked.has(call.caller), retrying: retrying.get(call._id) ?? [] })),
    page,
    pageSize: LOG_PAGE_SIZE,
    hasMore: calls.length > LOG_PAGE_SIZE,
    total,
    totalCapped: total >= LOG_COUNT_LIMIT,
    ...callsPhoneDisplay(shown, domain),
  };
}

const CSV_COLUMNS: (keyof CallRow)[] = ['callId', 'startedAt', 'trackingNumber', 'caller', 'destination', 'status', 'duration', 'source', 'keyword', 'landingPage', 'pagesSeen', 'gclid', 'offlineDescription', 'agent', 'revenue', 'matchConfidence', 'matchCandidates', 'firstCall', 'lead', 'verdict', 'msclkid', 'fbclid', 'firstTouchSource', 'firstTouchKeyword', 'firstTouchAt', 'lastNonDirectSource'];
/** Ours (transcripts/): the labels heard (`;` between them) and the transcript's text; then ours
 * (rules/), last: the tags (`;` between them) and the lead's value. */
const TRANSCRIPT_COLUMNS = ['keyPhrases', 'transcript'];
const MARK_COLUMNS = ['tags', 'value'];
/** Ours (analysis/), after them: the language model's summary, intent, lead score and sentiment, and
 * each outcome's yes, no or unknown (a person's correction included); empty until analysed. */
const ANALYSIS_COLUMNS = ['summary', 'intent', 'leadScore', 'sentiment', ...ANALYSIS_OUTCOMES];

function analysisCells({ analysis: a }: CallDoc): unknown[] {
  if (a?.status !== 'ready') return ANALYSIS_COLUMNS.map(() => null);
  return [a.summary, a.intent, a.leadScore, a.sentiment, ...ANALYSIS_OUTCOMES.map((name) => a.outcomes?.[name]?.answer ?? 'unknown')];
}
/** Calls whose transcripts' texts are read at once. */
const CSV_BATCH = 500;

/** `texts`: the transcripts' texts of calls (data/transcript-texts.ts). */
export async function* callsCsv(c: TelephonyCollections, domain: DomainDoc, range: DayRange, filters: CallFilters, texts: (ids: number[]) => Promise<Map<number, string>>): AsyncGenerator<string> {
  yield csvLine([...CSV_COLUMNS, ...TRANSCRIPT_COLUMNS, ...MARK_COLUMNS, ...ANALYSIS_COLUMNS]);
  const cursor = c.calls.find(filterOf(domain, range, filters), { sort: { startedAt: -1, _id: -1 }, limit: CSV_MAX_ROWS, batchSize: 1000 });
  let batch: CallDoc[] = [];
  const lines = async function* () {
    const textOf = await texts(batch.filter((call) => call.transcript?.status === 'ready').map((call) => call._id));
    for (const call of batch) {
      const row = rowOf(call, domain);
      const transcribed = row.transcript?.status === 'ready';
      yield csvLine([...CSV_COLUMNS.map((column) => (column === 'pagesSeen' ? row.pagesSeen.join(' ') : column === 'source' ? (row.source ?? UNATTRIBUTED) : column === 'verdict' ? verdictWord(row.verdict) : row[column])), transcribed ? row.transcript!.keyPhrases.join(';') : null, transcribed ? (textOf.get(call._id) ?? '') : null, row.tags.join(';'), row.value, ...analysisCells(call)]);
    }
    batch = [];
  };
  for await (const call of cursor) {
    batch.push(call);
    if (batch.length >= CSV_BATCH) yield* lines();
  }
  yield* lines();
}
