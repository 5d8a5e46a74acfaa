// What is being retried for the calls or forms shown: each outbox message for one of them that
// failed at least once and waits for its next attempt (a transcript, a recording's download, a push,
// a GA4 event, a mail of alerts, an ad platform's request carrying its lead), with when it started
// failing and its last error, so that a failure is said while it is retried, not when the outbox
// gives up a day later. Two or three indexed reads for a whole page.
import { ADS_PLATFORMS, PLATFORM_NAMES, type AdsPlatform } from '../ads/names.ts';
import type { AdsCollections } from '../ads/documents.ts';
import type { OutboxDoc, WebhookCollections } from '../webhooks/documents.ts';
import { wallClock } from '../agent/shapes.ts';
import { CRM_NAMES, type Crm } from '../crm/crm-client.ts';

export interface RetryingJob {
  /** The outbox's kind: `transcript`, `recording`, `webhook`, `analytics`, `mail`, `ads`, `analysis`, `crm`, `text`. */
  kind: OutboxDoc['kind'];
  /** The job in words: "Transcript", "Push (call)", "Google Ads conversion"… */
  job: string;
  /** When its first failed attempt was, at the domain's clock (`YYYY-MM-DD HH:MM:SS`). */
  since: string;
  attempts: number;
  error: string;
}

/** Messages read per page at most: a page shows 50 calls, each with a few jobs. */
const MAX_JOBS = 500;

/** What a message does, in words. */
export function jobName(m: Pick<OutboxDoc, 'kind' | 'label'>): string {
  if (m.kind === 'transcript') return 'Transcript';
  if (m.kind === 'recording') return m.label === 'recording' ? 'Recording download' : "Deleting the carrier's copy of the recording";
  if (m.kind === 'webhook') return `Push (${m.label})`;
  if (m.kind === 'analytics') return 'GA4 event';
  if (m.kind === 'mail') return `Mail (${m.label})`;
  if (m.kind === 'analysis') return 'Analysis by the language model';
  if (m.kind === 'crm') return `${CRM_NAMES[m.label as Crm] ?? m.label} delivery`;
  if (m.kind === 'text') return 'Text back';
  if (m.kind === 'ads') return `${PLATFORM_NAMES[m.label as AdsPlatform] ?? m.label} conversion`;
  return m.label;
}

const PROJECTION = { kind: 1, label: 1, about: 1, attempts: 1, firstAttemptAt: 1, createdAt: 1, lastError: 1 } as const;

/** The jobs being retried for each of `ids` (calls or forms of a domain in `timeZone`), oldest failure first. */
export async function retryingJobs(c: WebhookCollections & AdsCollections, kind: 'call' | 'form', ids: number[], timeZone: string): Promise<Map<number, RetryingJob[]>> {
  const jobs = new Map<number, RetryingJob[]>();
  if (ids.length === 0) return jobs;
  const jobOf = (m: OutboxDoc): RetryingJob => ({ kind: m.kind, job: jobName(m), since: wallClock(m.firstAttemptAt ?? m.createdAt, timeZone), attempts: m.attempts, error: m.lastError ?? 'no answer yet' });
  const add = (id: number, m: OutboxDoc) => jobs.set(id, [...(jobs.get(id) ?? []), jobOf(m)]);
  const field = kind === 'call' ? 'about.callIds' : 'about.formIds';
  const wanted = new Set(ids);
  const [own, leads] = await Promise.all([
    c.outbox.find({ [field]: { $in: ids }, attempts: { $gt: 0 } }, { projection: PROJECTION, limit: MAX_JOBS }).toArray(),
    // An ad platform's request carries many leads: each lead names the message carrying it.
    c.adsConversions.find({ _id: { $in: ids.flatMap((id) => ADS_PLATFORMS.map((p) => `${p}|${kind}:${id}`)) }, batch: { $ne: null } }, { projection: { itemId: 1, batch: 1 } }).toArray(),
  ]);
  for (const m of own) for (const id of (kind === 'call' ? m.about?.callIds : m.about?.formIds) ?? []) if (wanted.has(id)) add(id, m);
  if (leads.length) {
    const batches = new Map((await c.outbox.find({ _id: { $in: [...new Set(leads.map((l) => l.batch!))] }, attempts: { $gt: 0 } }, { projection: PROJECTION }).toArray()).map((m) => [m._id, m]));
    for (const lead of leads) if (batches.has(lead.batch!)) add(lead.itemId, batches.get(lead.batch!)!);
  }
  for (const list of jobs.values()) list.sort((a, b) => a.since.localeCompare(b.since));
  return jobs;
}
