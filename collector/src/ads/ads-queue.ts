// A lead, as it becomes one (the domain's lead rule, a verdict, a rule), is queued once for each ad
// platform its domain is connected to, or marked not sent there and why (nothing to match it by, no
// consent, too old). The queued leads of a domain and platform go together: one outbox message per
// few seconds (BATCH_WINDOW_MS) carries them, in one request (ads-sender.ts).
import { isDuplicateKey } from '../db/writes.ts';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import type { FormDoc } from '../forms/documents.ts';
import type { CallDoc } from '../telephony/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { OutboxMessage } from '../webhooks/documents.ts';
import type { AdsCollections, AdsConversionDoc, AdsPlatform } from './documents.ts';
import { callLead, formLead, type LeadEvent } from './lead-event.ts';
import type { MarkLeads } from './lead-marks.ts';
import { unsendable } from './platform-clients.ts';

/** How long leads gather before their request goes. */
export const BATCH_WINDOW_MS = 5000;
/** A conversion older than this is not taken (Google's limit: 90 days after the click). */
export const MAX_AGE_DAYS = 90;

/** The outbox message that sends a domain's and platform's queued leads, one per window: a second
 * enqueue of the same window is a no-op. */
export function batchMessage(domain: Pick<DomainDoc, '_id' | 'accountId'>, platform: AdsPlatform, name: string): OutboxMessage & { id: string } {
  const id = `ads_${platform}_${domain._id}_${name}`;
  return { id, accountId: domain.accountId, stream: `ads:${domain._id}:${platform}`, kind: 'ads', label: platform, url: `ads:${platform}`, contentType: 'application/json', body: JSON.stringify({ domainId: domain._id, platform }), signed: false };
}

export class AdsQueue {
  constructor(
    private readonly c: AdsCollections & DomainCollections,
    private readonly outbox: Outbox,
    private readonly marks: MarkLeads,
  ) {}

  /** The call reaction: a call that becomes a lead. */
  async callChanged(before: CallDoc | null, after: CallDoc): Promise<void> {
    if (!after.lead || before?.lead) return;
    const domain = await this.connectedDomain(after.domainId);
    if (domain) await this.queue(domain, callLead(after, domain.currency));
  }

  /** The form reaction: a submission that becomes a lead. */
  async formChanged(before: FormDoc | null, after: FormDoc): Promise<void> {
    if (!after.lead || before?.lead) return;
    const domain = await this.connectedDomain(after.domainId);
    if (domain) await this.queue(domain, formLead(after, domain.currency));
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
      const old = now.getTime() - lead.at.getTime() > MAX_AGE_DAYS * 86_400_000 ? `too old: more than ${MAX_AGE_DAYS} days` : null;
      const reason = old ?? unsendable(platform, lead);
      const doc: AdsConversionDoc = { _id: `${platform}|${lead.kind}:${lead.id}`, domainId: domain._id, accountId: domain.accountId, platform, kind: lead.kind, itemId: lead.id, state: reason ? 'not-sent' : 'queued', ...(reason ? { reason } : {}), at: now, queuedAt: now, batch: null };
      try {
        await this.c.adsConversions.insertOne(doc);
      } catch (err) {
        if (isDuplicateKey(err)) continue;
        throw err;
      }
      await this.marks(domain, [doc], doc.state, reason ?? undefined, now);
      if (!reason) {
        const window = Math.floor(now.getTime() / BATCH_WINDOW_MS);
        await this.outbox.enqueue(batchMessage(domain, platform, String(window)), now, new Date((window + 1) * BATCH_WINDOW_MS));
      }
    }
  }
}
