// A lead, as it becomes one (the domain's lead rule, a verdict, a rule), is queued once for each ad
// platform its domain is connected to, or marked not sent there and why (nothing to match it by, no
// consent, too old). The queued leads of a domain and platform go together: one outbox message per
// few seconds (BATCH_WINDOW_MS) carries them, in one request (ads-sender.ts). A lead that stops being
// one is taken back: not sent if it still waits, retracted where it was sent and the platform can
// (RETRACTABLE), the same way; a lead again before it went is queued again.
//
// A lead goes with its value (issue 69): one that a rule at `transcript-ready` or `analysis-ready`
// can still value waits for its transcript and its analysis (at most VALUE_WAIT_MS), and a value
// changed after it was sent (a person's, a rule's) is restated where the platform can (RESTATABLE:
// Google's adjustment under the same transaction id, Microsoft's restatement; Meta cannot, and the
// lead says so).
import { isDuplicateKey } from '../db/writes.ts';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import type { FormDoc } from '../forms/documents.ts';
import type { CallDoc } from '../telephony/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { OutboxMessage } from '../webhooks/documents.ts';
import { ADS_PLATFORMS, type AdsCollections, type AdsConversionDoc, type AdsPlatform } from './documents.ts';
import { callLead, callValue, formLead, type LeadEvent } from './lead-event.ts';
import type { MarkLeads } from './lead-marks.ts';
import { META_CANNOT_RESTATE, META_CANNOT_RETRACT, unsendable } from './platform-clients.ts';
import type { RuleCollections } from '../rules/documents.ts';
import type { RuleMoment } from '../rules/rule-input.ts';

/** How long leads gather before their request goes. */
export const BATCH_WINDOW_MS = 5000;
/** A conversion older than this is not taken (Google's limit: 90 days after the click). */
export const MAX_AGE_DAYS = 90;

export const TOO_OLD = `too old: more than ${MAX_AGE_DAYS} days`;
/** Whether a lead of `at` is too old for the platforms `now`. */
export const isTooOld = (at: Date, now = new Date()) => now.getTime() - at.getTime() > MAX_AGE_DAYS * 86_400_000;

/** How long a lead waits at most for the moments that can still value it (its transcript). */
export const VALUE_WAIT_MS = 15 * 60_000;

/** A call's value as its lead is sent; none before the call was. */
const valueOf = (call: CallDoc | null) => (call ? callValue(call) : 0);

/** The queued leads a request may take now: not held, or held past their time. */
export const sendableNow = (now: Date) => ({ $or: [{ holdUntil: { $exists: false } }, { holdUntil: { $lte: now } }] });

/** Why a lead that waits is not sent after all. */
export const NO_LONGER_A_LEAD = 'no longer a lead';
/** Platforms that take a sent lead back: Google restates its value to 0 (the Data Manager API's
 * adjustment), Microsoft retracts it; Meta's Conversions API has no way to. */
export const RETRACTABLE: ReadonlySet<AdsPlatform> = new Set(['google', 'microsoft']);
/** Platforms that take a sent lead's new value: the same two. */
export const RESTATABLE = RETRACTABLE;

/** What a message does: sends the queued leads, takes back the retracting, or asks Google what it
 * made of a request it took (`status`, with its `requestId`). */
export type BatchAction = 'send' | 'retract' | 'restate' | 'status';

/** The outbox message that sends (or retracts) a domain's and platform's leads, one per window: a
 * second enqueue of the same window is a no-op. A `status` message waits a minute or more: it goes
 * on a stream of its own, so that the leads after it do not wait behind it. */
export function batchMessage(domain: Pick<DomainDoc, '_id' | 'accountId'>, platform: AdsPlatform, name: string, action: BatchAction = 'send', extra: Record<string, unknown> = {}): OutboxMessage & { id: string } {
  const id = `ads_${action === 'send' ? '' : `${action}_`}${platform}_${domain._id}_${name}`;
  const stream = action === 'status' ? `ads-status:${domain._id}:${String(extra.requestId)}` : `ads:${domain._id}:${platform}`;
  return { id, accountId: domain.accountId, stream, kind: 'ads', label: platform, url: `ads:${platform}`, contentType: 'application/json', body: JSON.stringify({ domainId: domain._id, platform, ...(action === 'send' ? {} : { action }), ...extra }), signed: false };
}

/** The moments still to come for a call that may value it: its transcript, while the domain
 * transcribes and the answered call has none yet; its analysis, while the domain analyses and the
 * call has none yet (a failed transcript or analysis settles it). */
export function waitsFor(domain: Pick<DomainDoc, 'transcription' | 'analysis' | 'recording'>, call: Pick<CallDoc, 'transcript' | 'analysis' | 'duration' | 'recording'>): RuleMoment[] {
  const analyses = Boolean(domain.analysis?.enabled) && !call.analysis;
  if (call.transcript) return analyses && call.transcript.status === 'ready' ? ['analysis-ready'] : [];
  if (!domain.transcription?.enabled || !(call.duration && call.duration > 0)) return [];
  // No transcript comes without a recording (issue 80): one on its way, or the domain records calls.
  const recordingComes = call.recording ? call.recording.status === 'fetching' || call.recording.status === 'stored' : Boolean(domain.recording?.enabled);
  if (!recordingComes) return [];
  return analyses ? ['transcript-ready', 'analysis-ready'] : ['transcript-ready'];
}

export class AdsQueue {
  constructor(
    private readonly c: AdsCollections & DomainCollections & RuleCollections,
    private readonly outbox: Outbox,
    private readonly marks: MarkLeads,
  ) {}

  /** The call reaction: a call that becomes a lead, or stops being one; a lead whose transcript or
   * analysis came (it may wait for them), or whose value changed (restated once sent). */
  async callChanged(before: CallDoc | null, after: CallDoc): Promise<void> {
    const [lead, was] = [Boolean(after.lead), Boolean(before?.lead)];
    const read = (Boolean(after.transcript) && !before?.transcript) || (Boolean(after.analysis) && !before?.analysis);
    if (lead === was && !(lead && (read || valueOf(before) !== valueOf(after)))) return;
    const domain = await this.connectedDomain(after.domainId);
    if (!domain) return;
    if (lead && !was) await this.queue(domain, callLead(after, domain.currency), new Date(), await this.holdFor(domain, after));
    else if (!lead) await this.takeBack(domain, 'call', after._id);
    else {
      if (read && waitsFor(domain, after).length === 0) await this.release(domain, 'call', after._id);
      if (valueOf(before) !== valueOf(after)) await this.restate(domain, 'call', after._id);
    }
  }

  /** The form reaction: a submission that becomes a lead, or stops being one; a lead whose value changed. */
  async formChanged(before: FormDoc | null, after: FormDoc): Promise<void> {
    const [lead, was] = [Boolean(after.lead), Boolean(before?.lead)];
    if (lead === was && !(lead && (before?.value ?? 0) !== (after.value ?? 0))) return;
    const domain = await this.connectedDomain(after.domainId);
    if (!domain) return;
    if (lead && !was) await this.queue(domain, formLead(after, domain.currency));
    else if (!lead) await this.takeBack(domain, 'form', after._id);
    else await this.restate(domain, 'form', after._id);
  }

  /** Until when a call's lead waits for its value: while its transcript or analysis can still come
   * (waitsFor) that an enabled rule at that moment may value; null when nothing can value it later. */
  private async holdFor(domain: DomainDoc, call: CallDoc, now = new Date()): Promise<Date | null> {
    const moments = waitsFor(domain, call);
    if (!moments.length) return null;
    const valuing = await this.c.rules.countDocuments({ domainId: domain._id, moment: { $in: moments }, enabled: true, 'actions.type': 'value' }, { limit: 1 });
    return valuing ? new Date(now.getTime() + VALUE_WAIT_MS) : null;
  }

  /** A lead that waited for its transcript goes with the next window (its value read then). */
  private async release(domain: DomainDoc, kind: 'call' | 'form', itemId: number, now = new Date()): Promise<void> {
    for (const platform of ADS_PLATFORMS) {
      const released = await this.c.adsConversions.updateOne({ _id: `${platform}|${kind}:${itemId}`, state: 'queued', holdUntil: { $exists: true } }, { $unset: { holdUntil: '' } });
      if (released.modifiedCount) await this.enqueueWindow(domain, platform, 'send', now);
    }
  }

  /** A lead's value changed: waiting, it goes with the new one; on its way, it is restated once sent;
   * sent, it is restated where the platform can (Meta cannot: the lead says so). */
  async restate(domain: Pick<DomainDoc, '_id' | 'accountId' | 'timeZone'>, kind: 'call' | 'form', itemId: number, now = new Date()): Promise<void> {
    const docs = await this.c.adsConversions.find({ _id: { $in: ADS_PLATFORMS.map((platform) => `${platform}|${kind}:${itemId}`) }, state: { $in: ['queued', 'sent', 'accepted', 'restating'] } }).toArray();
    for (const doc of docs) {
      if (doc.state === 'queued' || doc.state === 'restating') {
        if (doc.batch !== null) await this.c.adsConversions.updateOne({ _id: doc._id, state: doc.state }, { $set: { restate: true } });
        continue;
      }
      const can = RESTATABLE.has(doc.platform);
      const [state, reason] = can ? (['restating', undefined] as const) : ([doc.state, `value changed after it was sent: ${META_CANNOT_RESTATE}`] as const);
      const changed = await this.c.adsConversions.updateOne({ _id: doc._id, state: doc.state }, can ? { $set: { state, at: now, batch: null }, $unset: { reason: '' } } : { $set: { reason: reason! } });
      if (!changed.modifiedCount) continue;
      await this.marks(domain, [doc], state, reason, now);
      if (can) await this.enqueueWindow(domain, doc.platform, 'restate', now);
    }
  }

  /** The domain, when it is connected to a platform (one indexed read for the others). */
  private async connectedDomain(domainId: string): Promise<DomainDoc | null> {
    if (!(await this.c.adsConnections.countDocuments({ domainId }, { limit: 1 }))) return null;
    return this.c.domains.findOne({ _id: domainId });
  }

  /** Queues the lead for each platform the domain is connected to; a lead queued before stays as it
   * is. `holdUntil`: it waits for its value until then at most (its transcript releases it sooner). */
  async queue(domain: Pick<DomainDoc, '_id' | 'accountId' | 'timeZone'>, lead: LeadEvent, now = new Date(), holdUntil: Date | null = null): Promise<void> {
    const connections = await this.c.adsConnections.find({ domainId: domain._id }, { projection: { platform: 1 } }).toArray();
    for (const { platform } of connections) {
      const reason = isTooOld(lead.at, now) ? TOO_OLD : unsendable(platform, lead);
      const held = !reason && holdUntil ? { holdUntil } : {};
      const doc: AdsConversionDoc = { _id: `${platform}|${lead.kind}:${lead.id}`, domainId: domain._id, accountId: domain.accountId, platform, kind: lead.kind, itemId: lead.id, state: reason ? 'not-sent' : 'queued', ...(reason ? { reason } : {}), at: now, queuedAt: now, batch: null, ...held };
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
      // A held lead's message goes when its wait ends, unless its transcript releases it before.
      if (doc.state === 'queued') await this.enqueueWindow(domain, platform, 'send', now, doc.holdUntil);
    }
  }

  /** A lead no more: waiting, it is not sent; sent, it is retracted where the platform can. */
  async takeBack(domain: Pick<DomainDoc, '_id' | 'accountId' | 'timeZone'>, kind: 'call' | 'form', itemId: number, now = new Date()): Promise<void> {
    const docs = await this.c.adsConversions.find({ _id: { $in: ADS_PLATFORMS.map((platform) => `${platform}|${kind}:${itemId}`) }, state: { $in: ['queued', 'sent', 'accepted', 'restating'] } }).toArray();
    for (const doc of docs) {
      // On its way (sent or restated): it is retracted once its request is answered (ads-sender.ts).
      if ((doc.state === 'queued' || doc.state === 'restating') && doc.batch !== null) {
        await this.c.adsConversions.updateOne({ _id: doc._id, state: doc.state }, { $set: { unlead: true } });
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

  /** The window's message: the leads of the next few seconds go with it. One due later (`at`: a held
   * lead's wait ends) goes on a stream of its own, so that the leads queued meanwhile do not wait
   * behind it. */
  private async enqueueWindow(domain: Pick<DomainDoc, '_id' | 'accountId'>, platform: AdsPlatform, action: Exclude<BatchAction, 'status'>, now: Date, at: Date = now): Promise<void> {
    const window = Math.floor(at.getTime() / BATCH_WINDOW_MS);
    const message = at > now ? { ...batchMessage(domain, platform, `held_${window}`, action), stream: `ads-held:${domain._id}:${platform}` } : batchMessage(domain, platform, String(window), action);
    await this.outbox.enqueue(message, now, new Date((window + 1) * BATCH_WINDOW_MS));
  }
}
