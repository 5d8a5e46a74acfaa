// One call as its page in the back end shows it: the calls log's row, who gave its verdict and
// when, the match confidence in words, and what is known of the caller's visit (its pages up to the
// call, the cart and the orders tied to it, as callStart shows them to an agent).
import { PLATFORM_NAMES, type AdsPlatform } from '../ads/names.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { AdsCollections } from '../ads/documents.ts';
import { retryingJobs } from './retrying-jobs.ts';
import type { AgentService } from '../agent/service.ts';
import { wallClock } from '../agent/shapes.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { CallAnswerer, CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import { endOfSecond } from '../telephony/routing.ts';
import { rowOf } from './calls-log.ts';
import { callsPhoneDisplay } from '../domains/phone-display.ts';

/** The match confidence (telephony/call-match.ts) as a person reads it. */
export function matchInWords(call: Pick<CallDoc, 'matchConfidence' | 'matchCandidates' | 'source'>): string {
  const n = call.matchCandidates ?? 0;
  switch (call.matchConfidence) {
    case 'certain':
      return 'Certain: one visit held this number before the call, and still held it when the call came in.';
    case 'likely':
      return `Likely: the visit holding the number when the call came in is credited, but ${n} visits held it shortly before: the number changed hands.`;
    case 'possible':
      return `Possible: nobody held the number when the call came in (the hold had ended); ${n === 1 ? 'one visit' : `${n} visits`} held it shortly before, and the last one is credited.`;
    case 'none':
      return 'None: no visit held this number before the call, so no page is credited.';
    default:
      return call.source === 'offline' ? 'An offline number: the call is credited to its campaign, not to a visit.' : 'Not matched to a visit.';
  }
}

/** Who reads the page: a member's phone is shown to themselves and to owners only (issue 79). */
export interface PageReader {
  username: string;
  role: string;
}

/** Who answered, as `reader` may see them: a member named, their phone only to themselves and owners. */
export function answererShown(answeredBy: CallDoc['answeredBy'], reader: PageReader): (Omit<CallAnswerer, 'number'> & { number: string | null }) | null {
  if (!answeredBy) return null;
  const maySeePhone = !answeredBy.member || reader.role === 'owner' || reader.username === answeredBy.member;
  return maySeePhone ? answeredBy : { ...answeredBy, number: null };
}

export async function callPage(c: TelephonyCollections & WebhookCollections & AdsCollections, agents: AgentService, domain: DomainDoc, callId: number, reader: PageReader) {
  const call = await c.calls.findOne({ _id: callId, domainId: domain._id });
  if (!call) return null;
  // A call's start is whole seconds: a page viewed during its first second came before it.
  const waiting = call.adsConversions?.some((m) => m.state === 'queued');
  const [{ views, currentCart, orders }, retrying, broken] = await Promise.all([
    agents.contextOf(domain, call, { until: endOfSecond(call.startedAt) }),
    retryingJobs(c, 'call', [call._id], domain.timeZone),
    // A lead waiting while its platform refuses the credentials says why (issue 81).
    waiting ? c.adsConnections.find({ domainId: domain._id, broken: { $ne: null } }, { projection: { platform: 1, broken: 1 } }).toArray() : [],
  ]);
  const refusal = new Map(broken.map((b) => [b.platform, b.broken!] as const));
  const reasonOf = (m: NonNullable<CallDoc['adsConversions']>[number]) => {
    const refused = m.state === 'queued' ? refusal.get(m.platform as AdsPlatform) : undefined;
    return refused ? `waiting: ${PLATFORM_NAMES[m.platform as AdsPlatform] ?? m.platform} refuses the connection's credentials since ${wallClock(refused.at, domain.timeZone)} (${refused.error}); reconnect it on the Conversions screen and the lead is sent` : m.reason;
  };
  return {
    call: { ...rowOf(call, domain), verdictBy: call.verdict?.by ?? null, verdictAt: call.verdict ? wallClock(call.verdict.at, domain.timeZone) : null, matchInWords: matchInWords(call) },
    // Ours (people/): the caller's person, whom "Call" calls back; null: none.
    personId: call.personId ?? null,
    // Ours (rules/): what people and rules marked on it, oldest first, at the domain's clock.
    history: (call.history ?? []).map((h) => ({ at: wallClock(h.at, domain.timeZone), by: h.by, what: h.what })),
    // Ours (ads/): where its lead is with each ad platform, once queued for one.
    ...(call.adsConversions?.length ? { adsConversions: call.adsConversions.map((m) => {
      const reason = reasonOf(m);
      return { platform: m.platform, state: m.state, at: wallClock(m.at, domain.timeZone), ...(reason ? { reason } : {}) };
    }) } : {}),
    // Ours (crm/): its records in the team's CRM, once sent to one.
    ...(call.crmRecords?.length ? { crmRecords: call.crmRecords } : {}),
    // Ours (flows/): its way through its call flow, who answered, and why the flow failed if it did.
    ...(call.flowId ? { flow: { id: call.flowId, path: (call.flowPath ?? []).map(({ at, ...step }) => ({ ...step, at: wallClock(at, domain.timeZone) })), answeredBy: answererShown(call.answeredBy, reader), voicemail: call.voicemail === true, failure: call.flowFailure ? { at: wallClock(call.flowFailure.at, domain.timeZone), error: call.flowFailure.error } : null } } : {}),
    // Ours (analysis/): what the language model read in it, once analysed or failed.
    ...(call.analysis ? { analysis: (({ at: _at, ...a }) => a)(call.analysis) } : {}),
    // Ours: what is being retried for it, with its last error (a transcript, a push, a mail…).
    retrying: retrying.get(call._id) ?? [],
    currency: domain.currency,
    pages: views,
    currentCart,
    orders,
    ...callsPhoneDisplay([call], domain),
  };
}
