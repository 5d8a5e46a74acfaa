// Delivers the outbox. Every collector process runs one worker; several may share a database.
//
// - Order: only the oldest message of a stream (one call's pushes, one order's event) is ever
//   attempted; the next waits until it is delivered or given up.
// - One attempt at a time: a worker claims an attempt with one findOneAndUpdate that sets a lease
//   on the message; a claim whose worker died expires after `leaseMs`. The claim returns the
//   message as it is now, so a message delivered meanwhile is never sent twice.
// - Retries back off exponentially from `firstRetryMs` to `maxRetryMs`; a message still failing
//   `giveUpAfterMs` after its first attempt is abandoned (time spent waiting behind an older message
//   of its stream does not count), and stays readable in the delivery log.
// - No one slow source stops the others: every attempt has a total deadline (send.ts, the recording
//   fetcher's pace, the mailer's), a host holds at most PER_HOST of the PARALLEL slots, and
//   recordings (large, from addresses a request named) at most RECORDING_SLOTS, so mails and pushes
//   always find room; transcripts (minutes of an engine's time each) at most `transcribeConcurrency`.
// - An attempt that takes longer than its lease (a transcript) renews it while it runs, so no other
//   worker takes it meanwhile.
// - Stopping abandons the attempts under way (their claims released, no attempt counted): they are
//   retried after the restart, and the process exits within its drain time.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { isDuplicateKey } from '../db/writes.ts';
import type { DeliveryLogDoc, OutboxDoc, WebhookCollections } from './documents.ts';
import type { Logger } from '../logger.ts';
import type { Outbox } from './outbox.ts';
import { send, type SendResult } from './send.ts';
import type { TeamCollections } from '../team/documents.ts';

export interface DeliveryOptions {
  /** Refuse webhook URLs on loopback and private networks (ALLOW_PRIVATE_WEBHOOKS=false). */
  publicOnly: boolean;
  pollMs: number;
  leaseMs: number;
  timeoutMs: number;
  firstRetryMs: number;
  maxRetryMs: number;
  giveUpAfterMs: number;
  /** Transcripts made at once (TRANSCRIBE_CONCURRENCY). */
  transcribeConcurrency: number;
  /** Calls analysed at once (ANALYZE_CONCURRENCY). */
  analyzeConcurrency?: number;
}

/** One analysis at a time by default: a local model serves one answer at a time. */
const DEFAULT_ANALYZE_CONCURRENCY = 1;

export const DEFAULT_DELIVERY: DeliveryOptions = {
  publicOnly: true,
  pollMs: 250,
  leaseMs: 30_000,
  timeoutMs: 10_000,
  firstRetryMs: 1000,
  maxRetryMs: 60_000,
  giveUpAfterMs: 24 * 3600_000,
  transcribeConcurrency: 1,
};

/** How many stream heads one worker sends at once, at most how many of them to one host, and at
 * most how many recordings: a failing or slow receiver cannot take every attempt of the worker. */
const PARALLEL = 8;
const PER_HOST = 4;
const RECORDING_SLOTS = 4;
/** Messages read per round while looking for the streams' heads; rounds stop at MAX_ROUNDS. */
const BATCH = 1000;
const MAX_ROUNDS = 10;
const UNCLAIMED = { claimedBy: null, claimedUntil: new Date(0) };

export function retryDelay(attempts: number, o: Pick<DeliveryOptions, 'firstRetryMs' | 'maxRetryMs'>): number {
  return Math.min(o.firstRetryMs * 2 ** Math.max(0, attempts - 1), o.maxRetryMs);
}

/** Sends an outbox mail (mail/mailer.ts). */
export interface MailSender {
  send(mail: { to: string }, id: string, signal?: AbortSignal): Promise<SendResult>;
}

/** Fetches a recording job's audio (recordings/fetcher.ts), or makes a call's transcript (transcripts/transcriber.ts). */
export interface RecordingSender {
  fetch(m: OutboxDoc, signal?: AbortSignal): Promise<SendResult>;
}

export class DeliveryWorker {
  private readonly owner = `worker_${randomUUID()}`;
  private readonly inFlight = new Set<string>();
  private readonly inFlightHosts = new Map<string, number>();
  /** Attempts under way of the kinds that have a limit of their own (slotsOf). */
  private readonly inFlightKinds = new Map<OutboxDoc['kind'], number>();
  /** Aborted by stop(): every attempt under way gives up at once. */
  private readonly stopping = new AbortController();
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private pendingWake = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly c: WebhookCollections & TeamCollections,
    outbox: Outbox,
    private readonly log: Logger,
    private readonly o: DeliveryOptions,
    /** Told of each attempt's outcome and error (the metrics count them; a recording given up is marked). */
    private readonly onAttempt: (message: OutboxDoc, outcome: DeliveryLogDoc['outcome'], error: string | null) => void = () => {},
    /** What sends the messages that are no HTTP POST: mails (SMTP_URL; absent, a mail is given up at
     * once: mail is not configured) and recordings to fetch. */
    private readonly senders: { mailer?: MailSender; recordings?: RecordingSender; transcripts?: RecordingSender; analyses?: RecordingSender; rules?: RecordingSender; ads?: RecordingSender; crm?: RecordingSender; texts?: RecordingSender; ruleAddress?: (accountId: string, address: string) => Promise<boolean> } = {},
  ) {
    this.unsubscribe = outbox.onEnqueue(() => this.wake());
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    this.unsubscribe?.();
    this.wake();
    await this.loop;
  }

  wake(): void {
    this.pendingWake = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.pendingWake = false;
      try {
        await this.tick();
      } catch (err) {
        this.log.error({ err }, 'webhook delivery round failed');
      }
      if (!this.pendingWake && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.o.pollMs);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeUp = null;
      }
    }
    await this.drained();
  }

  /** Starts an attempt for each stream whose oldest message is due and not being sent here. */
  private async tick(now = new Date()): Promise<void> {
    for (const m of await this.dueHeads(now)) {
      const host = hostOf(m.url);
      this.inFlight.add(m.stream);
      this.inFlightHosts.set(host, (this.inFlightHosts.get(host) ?? 0) + 1);
      this.inFlightKinds.set(m.kind, (this.inFlightKinds.get(m.kind) ?? 0) + 1);
      void this.attempt(m)
        .catch((err) => this.log.error({ err, messageId: m._id }, 'webhook delivery failed'))
        .finally(() => {
          this.inFlight.delete(m.stream);
          this.inFlightHosts.set(host, this.inFlightHosts.get(host)! - 1);
          if (this.inFlightHosts.get(host) === 0) this.inFlightHosts.delete(host);
          this.inFlightKinds.set(m.kind, this.inFlightKinds.get(m.kind)! - 1);
          this.wake(); // the stream's next message may be ready
        });
    }
  }

  /**
   * The oldest message of each stream, oldest first, that is due, not being sent here, and whose
   * host has room, as many as the worker has room for. Read in rounds that pass over the streams
   * already seen, so a stream with thousands of messages waiting (a receiver down for long) hides
   * no other stream's head behind them.
   */
  private async dueHeads(now: Date): Promise<OutboxDoc[]> {
    const seen = new Set<string>();
    const perHost = new Map(this.inFlightHosts);
    const perKind = new Map(this.inFlightKinds);
    const due: OutboxDoc[] = [];
    const room = PARALLEL - this.inFlight.size;
    for (let round = 0; round < MAX_ROUNDS && due.length < room; round++) {
      const batch = await this.c.outbox.find(seen.size ? { stream: { $nin: [...seen] } } : {}).sort({ enqueuedAt: 1 }).limit(BATCH).toArray();
      for (const m of batch) {
        if (seen.has(m.stream) || due.length >= room) continue;
        seen.add(m.stream);
        const host = hostOf(m.url);
        if (m.nextAttemptAt > now || m.claimedUntil > now || this.inFlight.has(m.stream) || (perHost.get(host) ?? 0) >= PER_HOST || (perKind.get(m.kind) ?? 0) >= this.slotsOf(m.kind)) continue;
        perHost.set(host, (perHost.get(host) ?? 0) + 1);
        perKind.set(m.kind, (perKind.get(m.kind) ?? 0) + 1);
        due.push(m);
      }
      if (batch.length < BATCH) break;
    }
    return due;
  }

  /** How many attempts of a kind may be under way at once. */
  private slotsOf(kind: OutboxDoc['kind']): number {
    return kind === 'recording' ? RECORDING_SLOTS : kind === 'transcript' ? this.o.transcribeConcurrency : kind === 'analysis' ? (this.o.analyzeConcurrency ?? DEFAULT_ANALYZE_CONCURRENCY) : PARALLEL;
  }

  private async drained(): Promise<void> {
    while (this.inFlight.size > 0) await new Promise((r) => setTimeout(r, 20));
  }

  private async attempt(seen: OutboxDoc): Promise<void> {
    const message = await this.claim(seen);
    if (!message) return;
    // Renewed at half its length while the attempt runs: a long one (a transcript) keeps its claim.
    const renew = setInterval(() => void this.c.outbox.updateOne({ _id: message._id, claimedBy: this.owner }, { $set: { claimedUntil: new Date(Date.now() + this.o.leaseMs) } }).catch(() => undefined), this.o.leaseMs / 2);
    try {
      const result = await this.deliver(message);
      // Stopped meanwhile: not an attempt that failed, but one to make again after the restart.
      if (this.stopping.signal.aborted) return void (await this.c.outbox.updateOne({ _id: message._id, claimedBy: this.owner }, { $set: UNCLAIMED }));
      await this.settle(message, result, new Date());
    } catch (err) {
      await this.c.outbox.updateOne({ _id: message._id, claimedBy: this.owner }, { $set: UNCLAIMED });
      throw err;
    } finally {
      clearInterval(renew);
    }
  }

  /** Claims the message's next attempt in one step: the message as it is now, or null when another
   * worker holds it, or it was delivered or rescheduled meanwhile. */
  private claim(m: OutboxDoc): Promise<OutboxDoc | null> {
    const now = new Date();
    return this.c.outbox.findOneAndUpdate(
      { _id: m._id, claimedUntil: { $lte: now }, nextAttemptAt: { $lte: now } },
      { $set: { claimedBy: this.owner, claimedUntil: new Date(now.getTime() + this.o.leaseMs) } },
      { returnDocument: 'after' },
    );
  }

  private async deliver(m: OutboxDoc): Promise<SendResult> {
    if (m.kind === 'mail') return this.deliverMail(m);
    const signal = this.stopping.signal;
    if (m.kind === 'recording') return this.senders.recordings ? this.senders.recordings.fetch(m, signal) : { delivered: false, httpStatus: null, error: 'recordings are not fetched by this process', permanent: false };
    if (m.kind === 'ads') return this.senders.ads ? this.senders.ads.fetch(m, signal) : { delivered: false, httpStatus: null, error: 'ad platforms are not reached by this process', permanent: false };
    if (m.kind === 'rules') return this.senders.rules ? this.senders.rules.fetch(m, signal) : { delivered: false, httpStatus: null, error: 'rules are not run by this process', permanent: false };
    if (m.kind === 'crm') return this.senders.crm ? this.senders.crm.fetch(m, signal) : { delivered: false, httpStatus: null, error: 'CRMs are not reached by this process', permanent: false };
    if (m.kind === 'text') return this.senders.texts ? this.senders.texts.fetch(m, signal) : { delivered: false, httpStatus: null, error: 'texts are not sent by this process', permanent: false };
    if (m.kind === 'analysis') return this.senders.analyses ? this.senders.analyses.fetch(m, signal) : { delivered: false, httpStatus: null, error: 'no language model is configured in this process (ANALYZE_URL)', permanent: false };
    if (m.kind === 'transcript') return this.senders.transcripts ? this.senders.transcripts.fetch(m, signal) : { delivered: false, httpStatus: null, error: 'no speech-to-text engine is configured in this process (TRANSCRIBE_URL)', permanent: false };
    const headers: Record<string, string> = { 'content-type': m.contentType, 'user-agent': 'RingTrail-Webhooks/1' };
    if (m.signed) {
      const account = await this.c.accounts.findOne({ _id: m.accountId });
      if (!account?.webhookSecret) return { delivered: false, httpStatus: null, error: `account ${m.accountId} has no webhook secret`, permanent: true };
      const at = new Date();
      headers['webhook-id'] = m._id;
      headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
      headers['webhook-signature'] = new Webhook(account.webhookSecret).sign(m._id, at, m.body);
    }
    return send(m.url, m.body, { headers, timeoutMs: this.o.timeoutMs, publicOnly: this.o.publicOnly && m.kind === 'webhook', signal });
  }

  /** A mail goes only to a member of the account still (one removed stops receiving at once), but
   * an invitation, which goes to someone who is not one yet, and a rule's mail to the address a rule
   * of the account still names. */
  private async deliverMail(m: OutboxDoc): Promise<SendResult> {
    const mail = JSON.parse(m.body) as { to: string };
    if (!this.senders.mailer) return { delivered: false, httpStatus: null, error: 'mail is not configured: set SMTP_URL', permanent: true };
    const allowed = m.label === 'invitation' || (await this.c.users.findOne({ _id: mail.to, accountId: m.accountId }, { projection: { _id: 1 } })) || (m.label === 'rule' && (await this.senders.ruleAddress?.(m.accountId, mail.to)));
    if (!allowed) return { delivered: false, httpStatus: null, error: `${mail.to} is no longer a member of the account`, permanent: true };
    return this.senders.mailer.send(mail, m._id, this.stopping.signal);
  }

  /** Logs the attempt; deletes the message when delivered or abandoned, else schedules the retry. */
  private async settle(m: OutboxDoc, result: SendResult, now: Date): Promise<void> {
    const attempt = m.attempts + 1;
    const delivered = result.delivered;
    const firstAttemptAt = m.firstAttemptAt ?? now;
    const abandoned = !delivered && (result.permanent || now.getTime() - firstAttemptAt.getTime() >= this.o.giveUpAfterMs);
    const outcome = delivered ? 'delivered' : abandoned ? 'abandoned' : 'retrying';
    const error = delivered ? null : (result.error ?? `HTTP ${result.httpStatus}`);
    await this.recordAttempt(m, attempt, now, result, error, outcome);
    this.onAttempt(m, outcome, error);
    if (outcome === 'retrying') {
      await this.c.outbox.updateOne({ _id: m._id }, { $set: { attempts: attempt, firstAttemptAt, lastError: error!, nextAttemptAt: new Date(now.getTime() + Math.max(retryDelay(attempt, this.o), result.retryAfterMs ?? 0)), ...UNCLAIMED } });
    } else {
      await this.c.outbox.deleteOne({ _id: m._id });
      if (abandoned) this.log.warn({ messageId: m._id, kind: m.kind, error, ...(m.kind === 'mail' ? {} : { url: m.url }) }, 'outbox message abandoned');
    }
  }

  /** One line per attempt. A worker that died after logging repeats the attempt under the same
   * number; its line is already there, so the duplicate is ignored rather than blocking the stream. */
  private async recordAttempt(m: OutboxDoc, attempt: number, now: Date, result: SendResult, error: string | null, outcome: DeliveryLogDoc['outcome']): Promise<void> {
    try {
      await this.c.deliveryLog.insertOne({
        _id: `${m._id}#${attempt}`,
        messageId: m._id,
        accountId: m.accountId,
        stream: m.stream,
        kind: m.kind,
        label: m.label,
        attempt,
        at: now,
        httpStatus: result.httpStatus,
        error,
        outcome,
        body: m.kind === 'mail' ? loggedMail(m.body) : m.body,
        ...(m.personIds?.length ? { personIds: m.personIds } : {}),
      });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
}

/** What the log keeps of a mail: who it went to and what it said it was, never its text: an
 * invitation's or a reset's link, an unsubscribe link, are tokens. */
function loggedMail(body: string): string {
  const { to, subject } = JSON.parse(body) as { to: string; subject: string };
  return JSON.stringify({ to, subject });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
