// The outbox's sender of leads to the ad platforms (kind `ads`): a message takes the oldest queued
// leads of its domain and platform (at most a request's worth; a retried message takes the same ones
// again, which the platforms' deduplication ids keep once), sends them in one request, and marks each
// sent or rejected with the platform's words. A request refused whole (the Data Manager API fails
// fast) is split and sent again until the wrong leads stand alone; 429, 5xx and no answer are left
// to the outbox to retry; refused credentials mark the connection broken and wait. A retraction's
// message (action `retract`) takes the retracting leads the same way; a `status` message asks
// Google what it made of a request it took (google-request-status.ts).
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { OutboxDoc } from '../webhooks/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { SendResult } from '../webhooks/send.ts';
import { AdsQueue, batchMessage, isTooOld, sendableNow, TOO_OLD, type BatchAction } from './ads-queue.ts';
import { ConversionMoves, type Counted } from './conversion-moves.ts';
import { GoogleRequestStatus, STATUS_AFTER_MS } from './google-request-status.ts';
import { UNREADABLE, type AdsConnections } from './connections.ts';
import type { AdsCollections, AdsConversionDoc, AdsPlatform, ConversionState } from './documents.ts';
import { callLead, formLead, type LeadEvent } from './lead-event.ts';
import type { SendOutcome } from './send-outcome.ts';
import { BATCH_OF, type PlatformClients } from './platform-clients.ts';
import type { MarkLeads } from './lead-marks.ts';
import type { RuleCollections } from '../rules/documents.ts';

type SenderCollections = AdsCollections & DomainCollections & TelephonyCollections & FormCollections & RuleCollections;
type Taken = { doc: AdsConversionDoc; lead: LeadEvent };

/** A lead's outcome: done, refused by the platform (its words), or skipped (not connected, gone). */
type Outcome = { done: true } | { refused: string } | { skipped: string };

type LeadAction = Exclude<BatchAction, 'status'>;

/** What a request does with its leads: the state it takes them from, and what each outcome makes
 * them. A retraction that fails leaves the lead sent, saying why. */
const ACTIONS: Record<LeadAction, { from: ConversionState; after: (o: Outcome) => [ConversionState, string?] }> = {
  send: { from: 'queued', after: (o) => ('done' in o ? ['sent'] : 'refused' in o ? ['rejected', o.refused] : ['not-sent', o.skipped]) },
  retract: { from: 'retracting', after: (o) => ('done' in o ? ['retracted'] : ['sent', `not retracted: ${'refused' in o ? o.refused : o.skipped}`]) },
  restate: { from: 'restating', after: (o) => ('done' in o ? ['sent'] : ['sent', `not restated: ${'refused' in o ? o.refused : o.skipped}`]) },
};
const DONE: Outcome = { done: true };

export class AdsSender {
  constructor(
    private readonly c: SenderCollections,
    private readonly connections: AdsConnections,
    private readonly clients: PlatformClients,
    private readonly outbox: Outbox,
    marks: MarkLeads,
    /** Told of each lead's outcome (the metric ringtrail_ads_conversions_total). */
    counted: Counted = () => {},
    /** How long after a request Google is first asked what it made of it. */
    statusAfterMs = STATUS_AFTER_MS,
  ) {
    this.queue = new AdsQueue(c, outbox, marks);
    this.moves = new ConversionMoves(c, marks, counted);
    this.googleStatus = new GoogleRequestStatus(c, connections, clients, outbox, this.moves, statusAfterMs);
  }

  /** Takes back the leads that stopped being leads while their request was on its way. */
  private readonly queue: AdsQueue;
  private readonly moves: ConversionMoves;
  private readonly googleStatus: GoogleRequestStatus;

  async fetch(m: OutboxDoc): Promise<SendResult> {
    const body = JSON.parse(m.body) as { domainId: string; platform: AdsPlatform; action?: BatchAction; requestId: string; attempt?: number };
    if (body.action === 'status') return this.googleStatus.check(body);
    const { domainId, platform, action = 'send' } = body as { domainId: string; platform: AdsPlatform; action?: LeadAction };
    const how = ACTIONS[action];
    const domain = await this.c.domains.findOne({ _id: domainId });
    const taken = domain ? await this.take(m._id, domainId, platform, how.from) : [];
    if (!domain || !taken.length) return { delivered: true, httpStatus: null, error: null, permanent: false };
    const connection = await this.connections.opened(domainId, platform);
    if (!connection && (await this.connections.exists(domainId, platform))) {
      // Connected, its credentials unreadable (SECRETS_KEY changed): marked broken, the leads wait.
      return { delivered: false, httpStatus: null, error: UNREADABLE, permanent: false };
    }
    if (!connection) {
      await this.settle(domain, taken, action, { skipped: 'not connected' });
      return { delivered: true, httpStatus: null, error: null, permanent: false };
    }
    const leads = await this.leadsOf(domain, taken, action);
    const request: Request = { domain, platform, action, settings: connection.doc.settings, secret: connection.secret };
    const failure = await this.deliver(request, leads);
    if (failure && !failure.ok) {
      if (failure.auth) await this.connections.markBroken(domainId, platform, `HTTP ${failure.status}: ${failure.message}`);
      return { delivered: false, httpStatus: failure.status, error: failure.message, permanent: false };
    }
    if (connection.doc.broken) await this.connections.markBroken(domainId, platform, null);
    // More waiting than one request carries: the next request goes at once.
    if (await this.c.adsConversions.countDocuments({ domainId, platform, state: how.from, batch: null, ...sendableNow(new Date()) }, { limit: 1 })) await this.outbox.enqueue(batchMessage(domain, platform, `after_${m._id}`, action));
    return { delivered: true, httpStatus: 200, error: null, permanent: false };
  }

  /** The leads this message carries: those it took before (a retry), else the oldest waiting. */
  private async take(messageId: string, domainId: string, platform: AdsPlatform, state: ConversionState): Promise<AdsConversionDoc[]> {
    let docs = await this.c.adsConversions.find({ batch: messageId, state }).toArray();
    if (!docs.length) {
      // Held leads wait for their value (ads-queue.ts).
      const oldest = await this.c.adsConversions.find({ domainId, platform, state, batch: null, ...sendableNow(new Date()) }, { projection: { _id: 1 }, sort: { queuedAt: 1 }, limit: BATCH_OF[platform] }).toArray();
      if (!oldest.length) return [];
      await this.c.adsConversions.updateMany({ _id: { $in: oldest.map((d) => d._id) }, state, batch: null }, { $set: { batch: messageId } });
      docs = await this.c.adsConversions.find({ batch: messageId, state }).toArray();
    }
    return docs;
  }

  /** Each taken lead as the platforms are told of it, read from its call or form now (its value
   * then); one whose call or form is gone (erased) is marked not sent rather than left queued, and
   * so is one that waited past the platform's accepted age (the platform down for days). */
  private async leadsOf(domain: DomainDoc, taken: AdsConversionDoc[], action: LeadAction): Promise<Taken[]> {
    const ids = (kind: 'call' | 'form') => taken.filter((doc) => doc.kind === kind).map((doc) => doc.itemId);
    const [calls, forms] = await Promise.all([this.c.calls.find({ _id: { $in: ids('call') } }).toArray(), this.c.forms.find({ _id: { $in: ids('form') } }).toArray()]);
    const byId = new Map<string, LeadEvent>([...calls.map((call) => [`call:${call._id}`, callLead(call, domain.currency)] as const), ...forms.map((form) => [`form:${form._id}`, formLead(form, domain.currency)] as const)]);
    const found = taken.flatMap((doc) => {
      const lead = byId.get(`${doc.kind}:${doc.itemId}`);
      return lead ? [{ doc, lead }] : [];
    });
    await this.settle(domain, taken.filter((doc) => !byId.has(`${doc.kind}:${doc.itemId}`)), action, { skipped: 'its call or form is gone' });
    if (action !== 'send') return found;
    const old = found.filter((t) => isTooOld(t.lead.at));
    await this.settle(domain, old.map((t) => t.doc), action, { skipped: TOO_OLD });
    return found.filter((t) => !old.includes(t));
  }

  /** Sends the leads; a whole refusal is split until the wrong ones stand alone. Answers the failure
   * to retry later (429, 5xx, no answer, refused credentials), or null when every lead is settled. */
  private async deliver(r: Request, leads: Taken[]): Promise<SendOutcome | null> {
    if (!leads.length) return null;
    const answer = await this.clients[r.action](r.platform, r.settings, r.secret, leads.map((t) => t.lead));
    const rejected = answer.rejected ?? new Map<number, string>();
    for (const [i, reason] of rejected) if (leads[i]) await this.settle(r.domain, [leads[i].doc], r.action, { refused: reason });
    const rest = leads.filter((_, i) => !rejected.has(i));
    if (answer.ok) {
      await this.settle(r.domain, rest.map((t) => t.doc), r.action, DONE);
      // Google processes what it took after answering: asked later what it made of it.
      if (r.platform === 'google' && r.action !== 'retract' && answer.id) await this.googleStatus.watch(r.domain, answer.id, rest.map((t) => t.doc));
      return null;
    }
    if (answer.retry || answer.auth) return answer;
    if (rejected.size) return this.deliver(r, rest);
    if (rest.length === 1) {
      await this.settle(r.domain, [rest[0]!.doc], r.action, { refused: answer.message });
      return null;
    }
    const half = Math.ceil(rest.length / 2);
    return (await this.deliver(r, rest.slice(0, half))) ?? this.deliver(r, rest.slice(half));
  }

  private async settle(domain: DomainDoc, docs: AdsConversionDoc[], action: LeadAction, outcome: Outcome, now = new Date()): Promise<void> {
    if (!docs.length) return;
    const { from, after } = ACTIONS[action];
    const [state, reason] = after(outcome);
    await this.moves.move(domain, docs, from, state, reason, now);
    // Those that stopped being leads while on their way are taken back now; those whose value
    // changed meanwhile are restated.
    if (state !== 'sent') return;
    const late = await this.c.adsConversions.find({ _id: { $in: docs.map((d) => d._id) }, $or: [{ unlead: true }, { restate: true }] }).toArray();
    for (const doc of late) {
      await this.c.adsConversions.updateOne({ _id: doc._id }, { $unset: { unlead: '', restate: '' } });
      if (doc.unlead) await this.queue.takeBack(domain, doc.kind, doc.itemId, now);
      else await this.queue.restate(domain, doc.kind, doc.itemId, now);
    }
  }
}

/** One request's what and where. */
interface Request {
  domain: DomainDoc;
  platform: AdsPlatform;
  action: LeadAction;
  settings: Record<string, string>;
  secret: Record<string, unknown>;
}
