// The registry of the collections: each family owns the shapes and indexes of its documents (its
// folder's documents.ts); this gathers them under one name each and creates the indexes at start.
import type { Collection, Db } from 'mongodb';
import { manageIndexes, type AccountDoc, type AuditDoc, type InvitationDoc, type SessionDoc, type SharedLinkDoc, type UserDoc } from '../team/documents.ts';
import { domainIndexes, type DomainDoc, type TrackingNumberDoc } from '../domains/documents.ts';
import { trackingIndexes, type ClickDoc, type LeaseDoc, type OverflowShowDoc, type SlotDoc, type ViewDoc, type ViewKeyDoc, type VisitDoc } from '../tracking/documents.ts';
import { offlineIndexes, type OfflineAssignmentDoc } from '../offline/documents.ts';
import { telephonyIndexes, type BlockedCallerDoc, type CallDoc, type CallerDoc, type SmsDoc } from '../telephony/documents.ts';
import type { CallDayDoc, CallerCallDoc, CallPageDoc } from '../data/documents.ts';
import type { KeywordMonthDoc, TrafficDayDoc } from '../reports/documents.ts';
import { commerceIndexes, type CartDoc, type ConversionDoc, type OrderDoc } from '../commerce/documents.ts';
import { agentIndexes, type LiveCallDoc } from '../agent/documents.ts';
import { webhookIndexes, type DeliveryLogDoc, type OutboxDoc } from '../webhooks/documents.ts';
import { rateLimitIndexes, type RateLimitDoc } from '../http/documents.ts';
import type { CounterDoc, ExternalRefDoc } from './documents.ts';
import { formIndexes, type FormDoc } from '../forms/documents.ts';
import { peopleIndexes, type PersonDoc, type PersonEntryDoc, type PersonKeyDoc } from '../people/documents.ts';
import { alertIndexes, type AlertChoiceDoc, type AlertThrottleDoc, type PendingAlertDoc, type SummaryRunDoc, type UnsubscribeTokenDoc, type WarningStateDoc } from '../alerts/documents.ts';

export interface Collections {
  accounts: Collection<AccountDoc>;
  users: Collection<UserDoc>;
  sessions: Collection<SessionDoc>;
  invitations: Collection<InvitationDoc>;
  auditLog: Collection<AuditDoc>;
  sharedLinks: Collection<SharedLinkDoc>;
  domains: Collection<DomainDoc>;
  trackingNumbers: Collection<TrackingNumberDoc>;
  slots: Collection<SlotDoc>;
  leases: Collection<LeaseDoc>;
  visits: Collection<VisitDoc>;
  views: Collection<ViewDoc>;
  viewKeys: Collection<ViewKeyDoc>;
  clicks: Collection<ClickDoc>;
  offlineAssignments: Collection<OfflineAssignmentDoc>;
  calls: Collection<CallDoc>;
  callDays: Collection<CallDayDoc>;
  callPages: Collection<CallPageDoc>;
  callerCalls: Collection<CallerCallDoc>;
  trafficDays: Collection<TrafficDayDoc>;
  keywordMonths: Collection<KeywordMonthDoc>;
  sms: Collection<SmsDoc>;
  forms: Collection<FormDoc>;
  people: Collection<PersonDoc>;
  personKeys: Collection<PersonKeyDoc>;
  personEntries: Collection<PersonEntryDoc>;
  externalRefs: Collection<ExternalRefDoc>;
  carts: Collection<CartDoc>;
  orders: Collection<OrderDoc>;
  conversions: Collection<ConversionDoc>;
  liveCalls: Collection<LiveCallDoc>;
  overflowShows: Collection<OverflowShowDoc>;
  outbox: Collection<OutboxDoc>;
  deliveryLog: Collection<DeliveryLogDoc>;
  counters: Collection<CounterDoc>;
  rateLimits: Collection<RateLimitDoc>;
  blockedCallers: Collection<BlockedCallerDoc>;
  callers: Collection<CallerDoc>;
  alertChoices: Collection<AlertChoiceDoc>;
  pendingAlerts: Collection<PendingAlertDoc>;
  alertThrottle: Collection<AlertThrottleDoc>;
  unsubscribeTokens: Collection<UnsubscribeTokenDoc>;
  summaryRuns: Collection<SummaryRunDoc>;
  warningStates: Collection<WarningStateDoc>;
}

export function collections(db: Db): Collections {
  return {
    accounts: db.collection('accounts'),
    users: db.collection('users'),
    sessions: db.collection('sessions'),
    invitations: db.collection('invitations'),
    auditLog: db.collection('audit_log'),
    sharedLinks: db.collection('shared_links'),
    domains: db.collection('domains'),
    trackingNumbers: db.collection('tracking_numbers'),
    slots: db.collection('slots'),
    leases: db.collection('leases'),
    visits: db.collection('visits'),
    views: db.collection('views'),
    viewKeys: db.collection('view_keys'),
    clicks: db.collection('clicks'),
    offlineAssignments: db.collection('offline_assignments'),
    calls: db.collection('calls'),
    callDays: db.collection('call_days'),
    callPages: db.collection('call_pages'),
    callerCalls: db.collection('caller_calls'),
    trafficDays: db.collection('traffic_days'),
    keywordMonths: db.collection('keyword_months'),
    sms: db.collection('sms'),
    forms: db.collection('forms'),
    people: db.collection('people'),
    personKeys: db.collection('person_keys'),
    personEntries: db.collection('person_entries'),
    externalRefs: db.collection('external_refs'),
    carts: db.collection('carts'),
    orders: db.collection('orders'),
    conversions: db.collection('conversions'),
    liveCalls: db.collection('live_calls'),
    overflowShows: db.collection('overflow_shows'),
    outbox: db.collection('outbox'),
    deliveryLog: db.collection('delivery_log'),
    counters: db.collection('counters'),
    rateLimits: db.collection('rate_limits'),
    blockedCallers: db.collection('blocked_callers'),
    callers: db.collection('callers'),
    alertChoices: db.collection('alert_choices'),
    pendingAlerts: db.collection('pending_alerts'),
    alertThrottle: db.collection('alert_throttle'),
    unsubscribeTokens: db.collection('unsubscribe_tokens'),
    summaryRuns: db.collection('summary_runs'),
    warningStates: db.collection('warning_states'),
  };
}

/** Every family's indexes. */
const INDEX_PLANS = [peopleIndexes, formIndexes, manageIndexes, domainIndexes, trackingIndexes, offlineIndexes, telephonyIndexes, commerceIndexes, agentIndexes, webhookIndexes, rateLimitIndexes, alertIndexes];

/** Idempotent; run at every start. Every query of a request's path goes through one of these. */
export async function ensureIndexes(c: Collections): Promise<void> {
  const creations = INDEX_PLANS.flatMap((plan) =>
    Object.entries(plan).flatMap(([name, indexes]) => {
      const collection = c[name as keyof Collections] as unknown as Collection | undefined;
      if (!collection) throw new Error(`an index plan names ${name}, which is not a collection`);
      return indexes.map(([key, options]) => collection.createIndex(key, options ?? {}));
    }),
  );
  await Promise.all(creations);
}
