// The warnings that tracking is broken, each read from what the collector already keeps, cheaply
// enough to ask every minute: whether it holds now for a domain (or an account), and what to say.
//   tag-stopped      a domain that had views on each of its last 7 days with views has had none for 24 hours
//   pool-exhausted   visitors were refused a number (every number held) this hour or the last
//   refused-origins  pages of an address not allowed sent views in the last hour (ends after a day without)
//   webhook-failing  a push of the account has been failing for more than an hour
//   carrier-silent   a call was routed over an hour ago and the carrier never reported its outcome
//   numbers-miswired a number wired through the carrier no longer sends its calls here (the daily check)
//   carrier-broken   the account's carrier account refuses its credentials, or is suspended
//   transcription-failing a call's transcript of the account has been failing for more than an hour
//   ads-broken       an ad platform refused a domain's credentials at a send (expired, revoked)
//   crm-broken       the domain's CRM refused its credentials at a delivery (expired, revoked)
//   flow-failing     a call's flow failed within the last 24 hours, the call forwarded to the destination
//   analysis-failing a call's analysis of the account has been failing several attempts in a row
import { dayKey } from '../data/call-days.ts';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import { addDays, localTime } from '../domains/time-zone.ts';
import { poolsReport } from '../reports/pools.ts';
import { localeOf, when } from '../domains/dates.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { OfflineCollections } from '../offline/documents.ts';
import type { DataCollections } from '../data/documents.ts';
import type { AdsCollections } from '../ads/documents.ts';
import { PLATFORM_NAMES } from '../ads/names.ts';
import type { CrmCollections } from '../crm/documents.ts';
import { CRM_NAMES } from '../crm/crm-client.ts';

/** A moment as the domain's people write it. */
const at = (date: Date, domain: DomainDoc) => when(date.toISOString(), { timeZone: domain.timeZone, locale: localeOf(domain.country ?? 'FR') });

export const WARNINGS = ['tag-stopped', 'pool-exhausted', 'refused-origins', 'webhook-failing', 'carrier-silent', 'numbers-miswired', 'carrier-broken', 'transcription-failing', 'ads-broken', 'flow-failing', 'analysis-failing', 'crm-broken'] as const;
export type Warning = (typeof WARNINGS)[number];

/** What a warning holding now says, in facts. */
export type Facts = [string, string][];

const HOUR = 3_600_000;

/** Whether the domain's tag stopped: views every day before, none for 24 hours. */
export async function tagStopped(c: ReportCollections, domain: DomainDoc, now: Date): Promise<Facts | null> {
  const today = localTime(now, domain.timeZone).day;
  const days = await c.trafficDays.find({ _id: { $gte: dayKey(domain._id, addDays(today, -30)), $lte: dayKey(domain._id, today) } }, { projection: { day: 1, views: 1, botViews: 1, lastViewAt: 1 }, sort: { _id: -1 } }).toArray();
  const withViews = days.filter((d) => d.lastViewAt);
  const last = withViews[0]?.lastViewAt;
  if (!last || now.getTime() - last.getTime() < 24 * HOUR) return null;
  // The 7 days up to the last view's each had views: a site that is visited every day.
  const lastDay = localTime(last, domain.timeZone).day;
  const daily = Array.from({ length: 7 }, (_, i) => addDays(lastDay, -i)).every((d) => withViews.some((v) => v.day === d));
  return daily ? [['Last view', at(last, domain)]] : null;
}

/** Visitors refused a number this hour or the last, per online pool. */
export async function poolExhausted(c: DomainCollections & TrackingCollections & OfflineCollections & TelephonyCollections & DataCollections & ReportCollections, domain: DomainDoc, now: Date): Promise<Facts | null> {
  const hours = [new Date(now.getTime() - HOUR), now].map((at) => localTime(at, domain.timeZone));
  const docs = await c.trafficDays.find({ _id: { $in: [...new Set(hours.map((h) => dayKey(domain._id, h.day)))] } }, { projection: { day: 1, pools: 1 } }).toArray();
  const refused = new Map<string, number>();
  for (const { day, time } of hours) {
    const doc = docs.find((d) => d.day === day);
    for (const [type, counts] of Object.entries(doc?.pools ?? {})) {
      const n = counts.refused?.[time.slice(0, 2)] ?? 0;
      if (n) refused.set(type, (refused.get(type) ?? 0) + n);
    }
  }
  if (!refused.size) return null;
  const today = localTime(now, domain.timeZone).day;
  const report = await poolsReport(c, domain, today, today, now);
  return [...refused].flatMap(([type, n]): Facts => {
    const pool = report.online.find((p) => String(p.type) === type);
    return [[`Pool ${type}`, `${n} visitor${n > 1 ? 's' : ''} shown the site's own number in the last two hours; ${pool ? `${pool.numbers} numbers, ${pool.recommendedSize} recommended` : ''}`]];
  });
}

/** Addresses not allowed whose pages send views: lately (an hour) to start, within a day to go on. */
export async function refusedOrigins(domain: DomainDoc, now: Date, ongoing: boolean): Promise<Facts | null> {
  const since = now.getTime() - (ongoing ? 24 * HOUR : HOUR);
  const lately = (domain.refusedOrigins ?? []).filter((o) => o.lastAt.getTime() >= since);
  return lately.length ? lately.map((o): [string, string] => [o.origin, `${o.count} views refused, the last on ${at(o.lastAt, domain)}`]) : null;
}

/** A push of the account still retried an hour after its first attempt. */
export async function webhookFailing(c: WebhookCollections, accountId: string, now: Date): Promise<Facts | null> {
  const stuck = await c.outbox.findOne({ accountId, kind: 'webhook', firstAttemptAt: { $lt: new Date(now.getTime() - HOUR) } }, { projection: { firstAttemptAt: 1, attempts: 1 } });
  if (!stuck) return null;
  const last = await c.deliveryLog.findOne({ messageId: stuck._id }, { sort: { attempt: -1 }, projection: { error: 1, httpStatus: 1 } });
  return [
    ['Failing since', `${stuck.firstAttemptAt!.toISOString().replace('T', ' ').slice(0, 16)} UTC`],
    ['Attempts', String(stuck.attempts)],
    ['Last answer', last ? (last.error ?? `HTTP ${last.httpStatus}`) : 'none'],
  ];
}

/** Failed attempts in a row of one transcript that say transcription is failing: said while it is
 * retried (a minute or so at the outbox's back-off), not a day later when the outbox gives up. */
export const FAILED_IN_A_ROW = 3;

/** The outbox's jobs of a model the account relies on: its transcripts (the speech-to-text engine),
 * its calls' analyses (the language model), each with its words. */
const MODEL_JOBS = {
  transcript: { label: 'transcript', waiting: 'Calls waiting for a transcript', said: 'The engine last said' },
  analysis: { label: 'analysis', waiting: 'Calls waiting for their analysis', said: 'The model last said' },
} as const;

/** A job of the account's (a transcript, an analysis) that failed FAILED_IN_A_ROW attempts in a row
 * and is retried (the engine or model down, refusing, or too slow): since when, how many calls wait,
 * what it last said. */
export async function modelFailing(c: WebhookCollections, accountId: string, now: Date, kind: keyof typeof MODEL_JOBS): Promise<Facts | null> {
  const { label, waiting: waitingWords, said } = MODEL_JOBS[kind];
  const stuck = await c.outbox.findOne({ accountId, kind, label, attempts: { $gte: FAILED_IN_A_ROW } }, { sort: { firstAttemptAt: 1 }, projection: { firstAttemptAt: 1, attempts: 1, lastError: 1 } });
  if (!stuck) return null;
  const [waiting, last] = await Promise.all([c.outbox.countDocuments({ accountId, kind, label }, { limit: 10_000 }), stuck.lastError ? null : c.deliveryLog.findOne({ messageId: stuck._id }, { sort: { attempt: -1 }, projection: { error: 1 } })]);
  return [
    ['Failing since', `${(stuck.firstAttemptAt ?? now).toISOString().replace('T', ' ').slice(0, 16)} UTC`],
    ['Attempts failed in a row', String(stuck.attempts)],
    [waitingWords, String(waiting)],
    [said, stuck.lastError ?? last?.error ?? 'nothing'],
  ];
}

/** The domain's numbers whose last check found their calls going elsewhere (carriers/number-check.ts). */
export async function numbersMiswired(c: DomainCollections, domain: DomainDoc): Promise<Facts | null> {
  const wrong = await c.trackingNumbers.find({ domainId: domain._id, 'carrier.check.ok': false }, { projection: { 'carrier.check': 1 } }).limit(20).toArray();
  return wrong.length ? wrong.map((n): [string, string] => [n._id, n.carrier?.check?.voiceUrl ? `its voice URL points to ${n.carrier.check.voiceUrl}` : 'it left the carrier account']) : null;
}

/** The account's carrier account refused its credentials (or is suspended) at its last check. */
export async function carrierBroken(c: TeamCollections, accountId: string): Promise<Facts | null> {
  const broken = (await c.accounts.findOne({ _id: accountId }, { projection: { 'carrier.broken': 1 } }))?.carrier?.broken;
  return broken ? [['Since', `${broken.at.toISOString().replace('T', ' ').slice(0, 16)} UTC`], ['The carrier says', broken.error]] : null;
}

/** The domain's ad platforms that refused its credentials at a send: leads wait meanwhile. */
export async function adsBroken(c: AdsCollections, domain: DomainDoc): Promise<Facts | null> {
  const broken = await c.adsConnections.find({ domainId: domain._id, broken: { $ne: null } }, { projection: { platform: 1, broken: 1 } }).toArray();
  const facts = broken.flatMap((b): Facts => (b.broken ? [[PLATFORM_NAMES[b.platform], `refuses the credentials since ${at(b.broken.at, domain)}: ${b.broken.error}`]] : []));
  return facts.length ? facts : null;
}

/** The domain's CRM that refused its credentials at a delivery: calls and forms wait meanwhile. */
export async function crmBroken(c: CrmCollections, domain: DomainDoc): Promise<Facts | null> {
  const broken = await c.crmConnections.find({ domainId: domain._id, broken: { $ne: null } }, { projection: { crm: 1, broken: 1 } }).toArray();
  const facts = broken.flatMap((b): Facts => (b.broken ? [[CRM_NAMES[b.crm], `refuses the credentials since ${at(b.broken.at, domain)}: ${b.broken.error}`]] : []));
  return facts.length ? facts : null;
}

/** The domain's calls of the last 24 hours whose flow failed (flows/flow-runner.ts): the latest, and why. */
export async function flowFailing(c: TelephonyCollections, domain: DomainDoc, now: Date): Promise<Facts | null> {
  const failed = await c.calls.find({ domainId: domain._id, startedAt: { $gte: new Date(now.getTime() - 24 * HOUR) }, 'flowFailure.at': { $exists: true } }, { projection: { flowFailure: 1, startedAt: 1 }, sort: { startedAt: -1 }, limit: 20 }).toArray();
  if (!failed.length) return null;
  const last = failed[0]!;
  return [
    ['Calls forwarded to the destination instead', `${failed.length}${failed.length === 20 ? ' or more' : ''} in the last 24 hours`],
    ['The last', `${at(last.startedAt, domain)}: ${last.flowFailure!.error}`],
  ];
}

/** Calls routed over an hour ago (and within a day) whose outcome never came, per domain: one query for all. */
export async function callsWithoutOutcome(c: TelephonyCollections, now: Date): Promise<Map<string, number>> {
  const calls = await c.calls.find({ status: null, startedAt: { $lt: new Date(now.getTime() - HOUR), $gte: new Date(now.getTime() - 24 * HOUR) } }, { projection: { domainId: 1 } }).limit(10_000).toArray();
  const byDomain = new Map<string, number>();
  for (const call of calls) byDomain.set(call.domainId, (byDomain.get(call.domainId) ?? 0) + 1);
  return byDomain;
}
