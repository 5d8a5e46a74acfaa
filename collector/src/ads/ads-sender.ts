// The outbox's sender of leads to the ad platforms (kind `ads`): a message takes the oldest queued
// leads of its domain and platform (at most a request's worth; a retried message takes the same ones
// again, which the platforms' deduplication ids keep once), sends them in one request, and marks each
// sent or rejected with the platform's words. A request refused whole (the Data Manager API fails
// fast) is split and sent again until the wrong leads stand alone; 429, 5xx and no answer are left
// to the outbox to retry; refused credentials mark the connection broken and wait.
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { OutboxDoc } from '../webhooks/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { SendResult } from '../webhooks/send.ts';
import { batchMessage } from './ads-queue.ts';
import type { AdsConnections } from './connections.ts';
import type { AdsCollections, AdsConversionDoc, AdsPlatform, ConversionState } from './documents.ts';
import { callLead, formLead, type LeadEvent } from './lead-event.ts';
import type { SendOutcome } from './send-outcome.ts';
import { BATCH_OF, type PlatformClients } from './platform-clients.ts';
import type { MarkLeads } from './lead-marks.ts';

type SenderCollections = AdsCollections & DomainCollections & TelephonyCollections & FormCollections;
type Taken = { doc: AdsConversionDoc; lead: LeadEvent };

export class AdsSender {
  constructor(
    private readonly c: SenderCollections,
    private readonly connections: AdsConnections,
    private readonly clients: PlatformClients,
    private readonly outbox: Outbox,
    private readonly marks: MarkLeads,
    /** Told of each lead's outcome (the metric ringtrail_ads_conversions_total). */
    private readonly counted: (platform: AdsPlatform, result: ConversionState) => void = () => {},
  ) {}

  async fetch(m: OutboxDoc): Promise<SendResult> {
    const { domainId, platform } = JSON.parse(m.body) as { domainId: string; platform: AdsPlatform };
    const domain = await this.c.domains.findOne({ _id: domainId });
    const taken = domain ? await this.take(m._id, domainId, platform) : [];
    if (!domain || !taken.length) return { delivered: true, httpStatus: null, error: null, permanent: false };
    const connection = await this.connections.opened(domainId, platform);
    if (!connection) {
      await this.mark(domain, taken, 'not-sent', 'not connected');
      return { delivered: true, httpStatus: null, error: null, permanent: false };
    }
    const leads = await this.leadsOf(domain, taken);
    const failure = await this.deliver(domain, platform, connection.doc.settings, connection.secret, leads);
    if (failure && !failure.ok) {
      if (failure.auth) await this.connections.markBroken(domainId, platform, `HTTP ${failure.status}: ${failure.message}`);
      return { delivered: false, httpStatus: failure.status, error: failure.message, permanent: false };
    }
    if (connection.doc.broken) await this.connections.markBroken(domainId, platform, null);
    // More waiting than one request carries: the next request goes at once.
    if (await this.c.adsConversions.countDocuments({ domainId, platform, state: 'queued', batch: null }, { limit: 1 })) await this.outbox.enqueue(batchMessage(domain, platform, `after_${m._id}`));
    return { delivered: true, httpStatus: 200, error: null, permanent: false };
  }

  /** The leads this message carries: those it took before (a retry), else the oldest queued. */
  private async take(messageId: string, domainId: string, platform: AdsPlatform): Promise<AdsConversionDoc[]> {
    let docs = await this.c.adsConversions.find({ batch: messageId, state: 'queued' }).toArray();
    if (!docs.length) {
      const oldest = await this.c.adsConversions.find({ domainId, platform, state: 'queued', batch: null }, { projection: { _id: 1 }, sort: { queuedAt: 1 }, limit: BATCH_OF[platform] }).toArray();
      if (!oldest.length) return [];
      await this.c.adsConversions.updateMany({ _id: { $in: oldest.map((d) => d._id) }, batch: null }, { $set: { batch: messageId } });
      docs = await this.c.adsConversions.find({ batch: messageId, state: 'queued' }).toArray();
    }
    return docs;
  }

  /** Each taken lead as the platforms are told of it, read from its call or form now (its value
   * then); one whose call or form is gone (erased) is marked not sent rather than left queued. */
  private async leadsOf(domain: DomainDoc, taken: AdsConversionDoc[]): Promise<Taken[]> {
    const ids = (kind: 'call' | 'form') => taken.filter((doc) => doc.kind === kind).map((doc) => doc.itemId);
    const [calls, forms] = await Promise.all([this.c.calls.find({ _id: { $in: ids('call') } }).toArray(), this.c.forms.find({ _id: { $in: ids('form') } }).toArray()]);
    const byId = new Map<string, LeadEvent>([...calls.map((call) => [`call:${call._id}`, callLead(call, domain.currency)] as const), ...forms.map((form) => [`form:${form._id}`, formLead(form, domain.currency)] as const)]);
    const found = taken.flatMap((doc) => {
      const lead = byId.get(`${doc.kind}:${doc.itemId}`);
      return lead ? [{ doc, lead }] : [];
    });
    await this.mark(domain, taken.filter((doc) => !byId.has(`${doc.kind}:${doc.itemId}`)), 'not-sent', 'its call or form is gone');
    return found;
  }

  /** Sends the leads; a whole refusal is split until the wrong ones stand alone. Answers the failure
   * to retry later (429, 5xx, no answer, refused credentials), or null when every lead is settled. */
  private async deliver(domain: DomainDoc, platform: AdsPlatform, settings: Record<string, string>, secret: Record<string, unknown>, leads: Taken[]): Promise<SendOutcome | null> {
    if (!leads.length) return null;
    const answer = await this.clients.send(platform, settings, secret, leads.map((t) => t.lead));
    const rejected = answer.rejected ?? new Map<number, string>();
    for (const [i, reason] of rejected) if (leads[i]) await this.mark(domain, [leads[i].doc], 'rejected', reason);
    const rest = leads.filter((_, i) => !rejected.has(i));
    if (answer.ok) {
      await this.mark(domain, rest.map((t) => t.doc), 'sent');
      return null;
    }
    if (answer.retry || answer.auth) return answer;
    if (rejected.size) return this.deliver(domain, platform, settings, secret, rest);
    if (rest.length === 1) {
      await this.mark(domain, [rest[0]!.doc], 'rejected', answer.message);
      return null;
    }
    const half = Math.ceil(rest.length / 2);
    return (await this.deliver(domain, platform, settings, secret, rest.slice(0, half))) ?? this.deliver(domain, platform, settings, secret, rest.slice(half));
  }

  private async mark(domain: DomainDoc, docs: AdsConversionDoc[], state: ConversionState, reason?: string, now = new Date()): Promise<void> {
    if (!docs.length) return;
    const why = reason?.slice(0, 500);
    await this.c.adsConversions.updateMany({ _id: { $in: docs.map((d) => d._id) }, state: 'queued' }, { $set: { state, at: now, ...(why ? { reason: why } : {}) } });
    await this.marks(domain, docs, state, why, now);
    for (const doc of docs) this.counted(doc.platform, state);
  }
}
