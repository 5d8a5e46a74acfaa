// A lead, as it becomes one (the domain's lead rule, a verdict, a rule), is queued once for each ad
// platform its domain is connected to, or marked not sent there and why (nothing to match it by, no
// consent, too old). The queued leads of a domain and platform go together: one outbox message per
// few seconds (BATCH_WINDOW_MS) carries them, in one request (ads-sender.ts). A lead that stops being
// one is taken back: not sent if it still waits, retracted where it was sent and the platform can
// (RETRACTABLE), the same way; a lead again before it went is queued again.
import { isDuplicateKey } from '../db/writes.ts';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import type { FormDoc } from '../forms/documents.ts';
import type { CallDoc } from '../telephony/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { OutboxMessage } from '../webhooks/documents.ts';
import { ADS_PLATFORMS, type AdsCollections, type AdsConversionDoc, type AdsPlatform } from './documents.ts';
import { callLead, formLead, type LeadEvent } from './lead-event.ts';
import type { MarkLeads } from './lead-marks.ts';
import { META_CANNOT_RETRACT, unsendable } from './platform-clients.ts';

/** How long leads gather before their request goes. */
export const BATCH_WINDOW_MS = 5000;
/** A conversion older than this is not taken (Google's limit: 90 days after the click). */
export const MAX_AGE_DAYS = 90;

export const TOO_OLD = `too old: more than ${MAX_AGE_DAYS} days`;
/** Whether a lead of `at` is too old for the platforms `now`. */
export const isTooOld = (at: Date, now = new Date()) => now.getTime() - at.getTime() > MAX_AGE_DAYS * 86_400_000;

/** Why a lead that waits is not sent after all. */
export const NO_LONGER_A_LEAD = 'no longer a lead';
/** Platforms that take a sent lead back: Google restates its value to 0 (the Data Manager API's
 * adjustment), Microsoft retracts it; Meta's Conversions API has no way to. */
export const RETRACTABLE: ReadonlySet<AdsPlatform> = new Set(['google', 'microsoft']);

/** What a message does: sends the queued leads, takes back the retracting, or asks Google what it
 * made of a request it took (`status`, with its `requestId`). */
export type BatchAction = 'send' | 'retract' | 'status';

/** The outbox message that sends (or retracts) a domain's and platform's leads, one per window: a
 * second enqueue of the same window is a no-op. A `status` message waits a minute or more: it goes
 * on a stream of its own, so that the leads after it do not wait behind it. */
export function batchMessage(domain: Pick<DomainDoc, '_id' | 'accountId'>, platform: AdsPlatform, name: string, action: BatchAction = 'send', extra: Record<string, unknown> = {}): OutboxMessage & { id: string } {
  const id = `ads_${action === 'send' ? '' : `${action}_`}${platform}_${domain._id}_${name}`;
  const stream = action === 'status' ? `ads-status:${domain._id}:${String(extra.requestId)}` : `ads:${domain._id}:${platform}`;
  return { id, accountId: domain.accountId, stream, kind: 'ads', label: platform, url: `ads:${platform}`, contentType: 'application/json', body: JSON.stringify({ domainId: domain._id, platform, ...(action === 'send' ? {} : { action }), ...extra }), signed: false };
}

export class AdsQueue {
  constructor(
    private readonly c: AdsCollections & DomainCollections,
    private readonly outbox: Outbox,
    private readonly marks: MarkLeads,
  ) {}

  /** The call reaction: a call that becomes a lead, or stops being one. */
  async callChanged(before: CallDoc | null, after: CallDoc): Promise<void> {
    if (Boolean(after.lead) === Boolean(before?.lead)) return;
    const domain = await this.connectedDomain(after.domainId);
    if (!domain) return;
    if (after.lead) await this.queue(domain, callLead(after, domain.currency));
    else await this.takeBack(domain, 'call', after._id);
  }

  /** The form reaction: a submission that becomes a lead, or stops being one. */
  async formChanged(before: FormDoc | null, after: FormDoc): Promise<void> {
    if (Boolean(after.lead) === Boolean(before?.lead)) return;
    const domain = await this.connectedDomain(after.domainId);
    if (!domain) return;
    if (after.lead) await this.queue(domain, formLead(after, domain.currency));
    else await this.takeBack(domain, 'form', after._id);
  }

  /** The domain, when it is connected to a platform (one indexed read for the others). */
  private async connectedDomain(domainId: string): Promise<DomainDoc | null> {
    if (!(await this.c.adsConnections.countDocuments({ domainId }, { limit: 1 }))) return null;
    return this.c.domains.findOne({ _id: domainId });
  }

  /** Queues the lead for each platform the domain is connected to; a lead queued before stays as it is. */
  async queue(domain: Pick<DomainDoc, '_id' | 'accountId' | 'timeZone'>, lead: LeadEvent, now = new Date()): Promise<void> {
    const connections = await this.c.adsConnections.find({ domainId: domain._id }, { projection: { platform: 1 } }).toArray();
    for (const { platform } of connections) {
      const reason = isTooOld(lead.at, now) ? TOO_OLD : unsendable(platform, lead);
      const doc: AdsConversionDoc = { _id: `${platform}|${lead.kind}:${lead.id}`, domainId: domain._id, accountId: domain.accountId, platform, kind: lead.kind, itemId: lead.id, state: reason ? 'not-sent' : 'queued', ...(reason ? { reason } : {}), at: now, queuedAt: now, batch: null };
      try {
        await this.c.adsConversions.insertOne(doc);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // Queued before: a lead again that had stopped being one before it went waits again.
        if (reason) continue;
        await this.c.adsConversions.updateOne({ _id: doc._id, state: 'queued' }, { $unset: { unlead: '' } });
        const again = await this.c.adsConversions.updateOne({ _id: doc._id, state: 'not-sent', reason: NO_LONGER_A_LEAD }, { $set: { state: 'queued', at: now, batch: null }, $unset: { reason: '' } });
        if (!again.modifiedCount) continue;
        doc.state = 'queued';
      }
      await this.marks(domain, [doc], doc.state, doc.reason, now);
      if (doc.state === 'queued') await this.enqueueWindow(domain, platform, 'send', now);
    }
  }

  /** A lead no more: waiting, it is not sent; sent, it is retracted where the platform can. */
  async takeBack(domain: Pick<DomainDoc, '_id' | 'accountId' | 'timeZone'>, kind: 'call' | 'form', itemId: number, now = new Date()): Promise<void> {
    const docs = await this.c.adsConversions.find({ _id: { $in: ADS_PLATFORMS.map((platform) => `${platform}|${kind}:${itemId}`) }, state: { $in: ['queued', 'sent', 'accepted'] } }).toArray();
    for (const doc of docs) {
      // On its way: it is retracted once its request is answered (ads-sender.ts).
      if (doc.state === 'queued' && doc.batch !== null) {
        await this.c.adsConversions.updateOne({ _id: doc._id, state: 'queued' }, { $set: { unlead: true } });
        continue;
      }
      const retract = doc.state !== 'queued' && RETRACTABLE.has(doc.platform);
      const [state, reason] = doc.state === 'queued' ? (['not-sent', NO_LONGER_A_LEAD] as const) : retract ? (['retracting', undefined] as const) : (['sent', `${NO_LONGER_A_LEAD}: ${META_CANNOT_RETRACT}`] as const);
      const changed = await this.c.adsConversions.updateOne({ _id: doc._id, state: doc.state, batch: doc.batch }, { $set: { state, at: now, batch: null, ...(reason ? { reason } : {}) } });
      if (!changed.modifiedCount) continue;
      await this.marks(domain, [doc], state, reason, now);
      if (retract) await this.enqueueWindow(domain, doc.platform, 'retract', now);
    }
  }

  /** The window's message: the leads of the next few seconds go with it. */
  private async enqueueWindow(domain: Pick<DomainDoc, '_id' | 'accountId'>, platform: AdsPlatform, action: Exclude<BatchAction, 'status'>, now: Date): Promise<void> {
    const window = Math.floor(now.getTime() / BATCH_WINDOW_MS);
    await this.outbox.enqueue(batchMessage(domain, platform, String(window), action), now, new Date((window + 1) * BATCH_WINDOW_MS));
  }
}
