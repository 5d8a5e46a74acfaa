// Prometheus metrics (prom-client), one registry per app: HTTP requests by route and status, the
// WARNING answers by reason, outbox deliveries by outcome, mails by kind and result, database command latency, and at each
// scrape the numbers held per pool, the outbox's depth and its oldest message's age; transcripts
// made by result and the queue of those waiting.
import type { CommandFailedEvent, CommandSucceededEvent, Db } from 'mongodb';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { heldNow } from '../reports/pools.ts';
import { ADDRESS_HOLDS_ITS_LIMIT, NO_NUMBER_AVAILABLE } from '../http/tracking-failure.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';

/** What a WARNING's errorMessage is about, as a label of few values. */
export function warningReason(message: string): string {
  if (message.startsWith('No tracking number available: the domain has no online pool')) return 'no_online_pool';
  if (message === NO_NUMBER_AVAILABLE) return 'pool_exhausted';
  if (message === ADDRESS_HOLDS_ITS_LIMIT) return 'address_limit';
  if (message.startsWith('No tracking number for robots')) return 'robot';
  if (message.startsWith('Too many requests')) return 'rate_limited';
  if (message.startsWith('Tracking number already expired')) return 'expired';
  if (message.startsWith('Tracking number held by another visit')) return 'held_by_another_visit';
  return 'other';
}

export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({ name: 'http_requests_total', help: 'HTTP requests, by route, method and status', labelNames: ['route', 'method', 'status'], registers: [this.registry] });
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency, by route, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly warnings = new Counter({ name: 'ringtrail_warnings_total', help: 'WARNING answers of call tracking and the browser doors, by reason', labelNames: ['reason'], registers: [this.registry] });
  readonly deliveries = new Counter({ name: 'ringtrail_deliveries_total', help: 'Webhook, analytics and mail delivery attempts, by kind and outcome', labelNames: ['kind', 'outcome'], registers: [this.registry] });
  readonly adsConversions = new Counter({ name: 'ringtrail_ads_conversions_total', help: 'Leads sent to the ad platforms, by platform (google, microsoft, meta) and result (sent, accepted, rejected, not-sent, retracted)', labelNames: ['platform', 'result'], registers: [this.registry] });
  readonly mailSent = new Counter({ name: 'ringtrail_mail_sent_total', help: 'Mail delivery attempts, by the kind of mail (missed-call, warning...) and result (delivered, retrying, abandoned)', labelNames: ['kind', 'result'], registers: [this.registry] });
  readonly texts = new Counter({ name: 'ringtrail_texts_total', help: 'Texts received and sent from the tracking numbers, by direction and result (received; queued, sent, delivered, undelivered, failed)', labelNames: ['direction', 'result'], registers: [this.registry] });
  readonly crmSync = new Counter({ name: 'ringtrail_crm_sync_total', help: "Deliveries of calls and forms to the domains' CRMs, by CRM and result (sent, updated, failed, retrying)", labelNames: ['crm', 'result'], registers: [this.registry] });
  readonly analyses = new Counter({ name: 'ringtrail_analyses_total', help: "Calls' analyses by the language model, by result (made, failed for good, retrying)", labelNames: ['result'], registers: [this.registry] });
  readonly transcripts = new Counter({ name: 'ringtrail_transcripts_total', help: 'Transcript attempts, by result (made, failed for good, retrying)', labelNames: ['result'], registers: [this.registry] });
  readonly transcribedSeconds = new Counter({ name: 'ringtrail_transcribed_audio_seconds_total', help: 'Seconds of recordings transcribed', registers: [this.registry] });
  readonly dbDuration = new Histogram({
    name: 'ringtrail_db_command_duration_seconds',
    help: 'Database command latency, by command (MongoDB driver command monitoring)',
    labelNames: ['command', 'outcome'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });

  private readonly succeeded = (e: CommandSucceededEvent) => this.dbDuration.observe({ command: e.commandName, outcome: 'ok' }, e.duration / 1000);
  private readonly failed = (e: CommandFailedEvent) => this.dbDuration.observe({ command: e.commandName, outcome: 'failed' }, e.duration / 1000);

  constructor(c: DomainCollections & TrackingCollections & WebhookCollections, private readonly db: Db) {
    collectDefaultMetrics({ register: this.registry });
    // Only a client made with `monitorCommands: true` (db/connect.ts) reports its commands.
    db.client.on('commandSucceeded', this.succeeded);
    db.client.on('commandFailed', this.failed);
    // Each gauge reads its own values: the registry collects them all at once.
    const perPool = (name: string, help: string, count: (domainId: string, type: number, now: Date) => Promise<number>) =>
      new Gauge({
        name,
        help,
        labelNames: ['domain', 'type'],
        registers: [this.registry],
        async collect() {
          const now = new Date();
          this.reset();
          for await (const domain of c.domains.find({ 'pools.usage': 'online' }, { projection: { pools: 1 } })) {
            for (const pool of domain.pools.filter((p) => p.usage === 'online')) this.set({ domain: domain._id, type: String(pool.type) }, await count(domain._id, pool.type, now));
          }
        },
      });
    perPool('ringtrail_pool_numbers', 'Tracking numbers per online pool', (domainId, type) => c.trackingNumbers.countDocuments({ domainId, usage: 'online', type }));
    perPool('ringtrail_pool_held', 'Numbers (or codes) held by a visitor now, per online pool', (domainId, type, now) => heldNow(c, domainId, type, now));
    new Gauge({
      name: 'ringtrail_outbox_messages',
      help: 'Messages waiting in the outbox',
      registers: [this.registry],
      async collect() {
        this.set(await c.outbox.countDocuments());
      },
    });
    // The model jobs' queues: transcripts (transcripts/) and call analyses (analysis/) still to make.
    for (const [kind, name, help] of [
      ['transcript', 'ringtrail_transcripts_queued', 'Transcripts waiting to be made (their outbox messages)'],
      ['analysis', 'ringtrail_analyses_queued', 'Calls waiting to be analysed by the language model (their outbox messages)'],
    ] as const) {
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          this.set(await c.outbox.countDocuments({ kind }));
        },
      });
    }
    new Gauge({
      name: 'ringtrail_outbox_oldest_age_seconds',
      help: 'Age of the oldest message waiting in the outbox (0 when empty)',
      registers: [this.registry],
      async collect() {
        const oldest = await c.outbox.find({}, { sort: { enqueuedAt: 1 }, limit: 1, projection: { createdAt: 1 } }).next();
        this.set(oldest ? (Date.now() - oldest.createdAt.getTime()) / 1000 : 0);
      },
    });
  }

  /** Stops listening to the database client, which may outlive this app. */
  close(): void {
    this.db.client.off('commandSucceeded', this.succeeded);
    this.db.client.off('commandFailed', this.failed);
  }
}
