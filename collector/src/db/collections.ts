// Every collection the collector uses, its document shape, and its indexes.
import type { Collection, Db, Filter, UpdateFilter } from 'mongodb';
import type { CallStatus, DisplayMode, RedirectPlan, RouteReason, TimetableEntry } from '@ringtrail/shared';
import type { Attribution } from '../tracking/attribution.ts';

export type PoolUsage = 'online' | 'offline';

export interface PoolConfig {
  type: number;
  usage: PoolUsage;
  /** > 0: a shared pool, one number serves many visitors, each with a code of this many digits. */
  codeDigits: number;
  /** Offline surtax pools: the cost group `assign` may ask for. */
  costGroup?: string;
  /** Online pools: the number the browser doors show when every number is held (reports/overflow). */
  overflowNumber?: string;
}

export interface AccountDoc {
  _id: string;
  name: string;
  callCenterApiKeyHash?: string;
  webhookUrl?: string;
  /** Standard Webhooks secret (`whsec_<base64>`) signing every push; stored as is, since signing needs it. */
  webhookSecret?: string;
}

/** A user of the back end (manage/users.ts); `_id` = the e-mail, lower case. */
export interface UserDoc {
  _id: string;
  accountId: string;
  /** scrypt (manage/passwords.ts); the password itself is never stored nor logged. */
  passwordHash: string;
  createdAt: Date;
}

/** A signed-in session (manage/sessions.ts); `_id` = SHA-256 of the cookie's token. */
export interface SessionDoc {
  _id: string;
  username: string;
  accountId: string;
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
}

export interface DomainDoc {
  _id: string;
  name: string;
  accountId: string;
  apiKeyHash?: string;
  dataApiKeyHash?: string;
  offlineApiKeyHash?: string;
  offlineApiEnabled: boolean;
  customerKeyHash?: string;
  publicKeyHash?: string;
  /** The public key in clear as well: it is published in every page of the site, and the back end
   * shows the script tag that carries it. */
  publicKey?: string;
  /** Origins (scheme, host, port) whose pages may call the browser doors with the public key. */
  allowedOrigins: string[];
  /** The site's real numbers, normalized digits: the only ones the browser doors map. */
  sitePhones: string[];
  /** The tracker's display mode when its script tag names none. */
  displayMode: DisplayMode;
  /** The tracker's anti-flicker timeout (ms) when its script tag names none. */
  antiFlickerMs: number;
  /** Seconds an assignment lasts when the request says `expiration=-1`. */
  defaultExpiration: number;
  timeZone: string;
  currency: string;
  callerPrivacy: string;
  orderStatuses: { name: string; isSale: boolean }[];
  /** GA4 Measurement Protocol: the purchase event of an order's first sale goes there when both are set. */
  ga4MeasurementId?: string;
  ga4ApiSecret?: string;
  /** In fixture order: the first online pool is the default when a request names no type. */
  pools: PoolConfig[];
  /** Numbers one client address may hold at once (ours); 0: no limit. Absent: the default (settings.ts). */
  numbersPerAddress?: number;
  /** Ours (telephony/redirects.ts), absent in domains made before them: the defaults of settings.ts. */
  redirectPhone?: string | null;
  redirect?: { enabled: boolean; timetable: TimetableEntry[] };
  redirectAfterSeconds?: number;
  whisper?: boolean;
  /** The last origins the browser doors refused (browser/refused-origins.ts). */
  refusedOrigins?: { origin: string; count: number; firstAt: Date; lastAt: Date }[];
}

export interface TrackingNumberDoc {
  _id: string; // digits; a number belongs to one pool of one domain
  domainId: string;
  type: number;
  usage: PoolUsage;
  codeDigits: number;
  costGroup?: string;
  /** Offline numbers: when the number was last released, for `/list`'s `last_update`. */
  releasedAt?: Date;
  /** A pool's overflow number: never claimed, shown when the pool is exhausted. */
  overflow?: boolean;
}

/** A page the browser doors showed a pool's overflow number (tracking/overflow.ts): a call to it
 * is attributed when one visit was shown it in the minutes before. */
export interface OverflowShowDoc {
  _id: number; // the view
  domainId: string;
  number: string;
  visitId: number;
  /** The site's phone the overflow number stood for. */
  phone: string;
  clientData: unknown;
  at: Date;
}

/** An offline number's assignment; `_id` = the number, so two assigns of one number collide. Deleted on unassign. */
export interface OfflineAssignmentDoc {
  _id: string;
  domainId: string;
  type: number;
  destination: string;
  description: string;
  allowRedirect: boolean;
  timetable: TimetableEntry[];
  operator: string | null;
  assignedAt: Date;
  updatedAt: Date;
}

/**
 * A slot is what one visitor holds at a time: an online number, or a number and code in a shared
 * pool. Its `freeAt` is the truth of who may claim it: one findOneAndUpdate on `freeAt <= now` claims
 * it. An exclusive number's slot is made by the seed; a code's slot by its first claim (an upsert).
 */
export interface SlotDoc {
  _id: string; // the number, or `<number>#<code>`
  domainId: string;
  type: number;
  number: string;
  /** Null for an exclusive number. */
  code: string | null;
  /** Claims so far: the latest lease is `<slot>@<gen>`. */
  gen: number;
  /** When the current lease ends (or ended); the epoch for a slot never held. */
  freeAt: Date;
  /** The holder of the current (or last) lease: a visit finds what it holds by these. */
  visitId: number;
  phone: string | null;
  /** The current lease's hold on its client address's limit (numbersPerAddress); null or absent: none. */
  hold?: { address: string; token: string } | null;
}

/** One assignment of a slot to a visitor, kept after it ends so a late call finds who held the number.
 * `_id` = slot@gen. Its expiry follows the slot's while it is the slot's current lease. */
export interface LeaseDoc {
  _id: string;
  slot: string;
  gen: number;
  domainId: string;
  number: string;
  code: string | null;
  type: number;
  visitId: number;
  viewId: number;
  /** The original number the tracking number stands for, normalized digits. */
  phone: string;
  clientData: unknown;
  assignedAt: Date;
  expiresAt: Date;
}

export interface VisitDoc {
  _id: number;
  domainId: string;
  createdAt: Date;
  lastSeenAt: Date;
  ip: string;
  userAgent: string | null;
  isMobile: boolean;
  isBot: boolean;
  uniqueVisitorId: string | null;
  landingUrl: string;
  referrer: string;
  attribution: Attribution;
}

export interface ViewDoc {
  _id: number;
  domainId: string;
  visitId: number;
  createdAt: Date;
  url: string;
  pageTitle: string;
  referrer: string;
  ip: string;
  isMobile: boolean;
  userAgent: string | null;
  isBot: boolean;
  directDisplay: boolean;
  nrPhones: number;
  phones: string[];
  uniqueViewId: string | null;
  attribution: Attribution;
}

/** Claims a client's `unique_view_id` for the first view that carried it. */
export interface ViewKeyDoc {
  _id: string;
  viewId: number;
  visitId: number;
}

export interface ClickDoc {
  _id: number;
  domainId: string;
  /** `click`: a visitor revealed the number. `display`: the tracker asked for a number that appeared
   * on a direct display page after its view (SPA, AJAX); not a click, kept apart in reports. */
  kind: 'click' | 'display';
  viewId: number | null;
  visitId: number | null;
  phone: string;
  leaseId: string | null;
  createdAt: Date;
  userAgent: string | null;
  isBot: boolean;
}

/** Who led to a call: the visit that held the number, or the offline number's campaign. */
export interface CallAttribution {
  visitId: number | null;
  viewId: number | null;
  url: string | null;
  referrer: string | null;
  /** The attribution label: `<class>` or `<class>:<source name>` (`organic:google.com`), `offline` for an offline number. */
  source: string | null;
  keyword: string | null;
  gclid: string | null;
  clientData: unknown;
  /** The visit's page URLs before the call, one per line. */
  callPath: string | null;
  offlineDescription: string | null;
}

export interface CallDoc extends CallAttribution {
  _id: number;
  domainId: string;
  callRef: string;
  trackingNumber: string;
  code: string | null;
  /** Where the call was forwarded (the site's real number), or null. */
  destination: string | null;
  /** Stored whole; masked on output by the domain's callerPrivacy. Null: anonymous. */
  caller: string | null;
  startedAt: Date;
  /** Null while the call is ringing or going on (reported by a carrier's voice hook, outcome not known yet). */
  status: CallStatus | null;
  duration: number;
  billingDuration: number;
  answerTime: number;
  triggerType: number;
  keypad: string | null;
  postcode: string | null;
  isRedirect: boolean;
  expiredRedirect: boolean;
  revenue: number;
  route: RouteReason;
  /** The status the route imposed whatever the outcome (NOTASSIGNED, EXPIRED), else null. */
  forcedStatus: CallStatus | null;
  receivedAt: Date;
  updatedAt: Date;
  /** The call-center agent who took the call (callStart or setAgentToCall); absent or null: none yet. */
  agent?: string | null;
  /** Revision, raised by every carrier report: a report's change applies only to the call it read. */
  rev: number;
  /** Visits that held the number in the reservation window before the call (telephony/call-match.ts);
   * null for offline numbers and calls stored before it was kept. */
  matchCandidates?: number | null;
  matchConfidence?: 'certain' | 'likely' | 'possible' | 'none' | null;
  /** Where the call goes if nobody answers, decided with its route (telephony/redirects.ts); absent: none. */
  redirect?: RedirectPlan | null;
}

export type StatusTotals = Partial<Record<CallStatus, { calls: number; duration: number; revenueCents: number }>>;

/** The call fields the daily rollups also count by: the data API's filters that can match most calls. */
export type RollupDimension = 'trackingNumber' | 'destination' | 'offlineDescription';

/** A domain's calls of one local day whose outcome is known, per status (data/call-days.ts); again
 * per value of each dimension, keyed by `rollupKey(value)`. */
export interface CallDayDoc {
  _id: string; // `<domainId>|<YYYY-MM-DD>`
  domainId: string;
  day: string;
  statuses: StatusTotals;
  by?: Partial<Record<RollupDimension, Record<string, StatusTotals>>>;
}

/** A domain's calls of one UTC hour (data/call-pages.ts): by call id, each one's entry (null where
 * the call moved to another hour) and the call revision it was written at. */
export interface CallPageDoc {
  _id: string; // `<domainId>|<hour ISO>`
  domainId: string;
  hour: Date;
  calls: Record<string, string | null>;
  revs: Record<string, number>;
}

/** Visits, views or sales of a day, in total or for one source class or keyword. */
export interface TrafficCounts {
  visits?: number;
  views?: number;
  orders?: number;
  revenueCents?: number;
}

export interface CallSourceCounts {
  total?: number;
  answered?: number;
  /** Calls of blocked callers (CALLER_PHONE_BLACKLISTED): in none of the other counters. */
  blocked?: number;
  src?: Record<string, number>;
  kw?: Record<string, number>;
}

/** A domain's traffic of one local day (reports/traffic-days.ts). */
export interface TrafficDayDoc extends TrafficCounts {
  _id: string; // `<domainId>|<YYYY-MM-DD>`
  domainId: string;
  day: string;
  botViews?: number;
  /** The day's last view, bots' included: the back end's "views have arrived" check. */
  lastViewAt?: Date;
  /** By the visit's source class. */
  src?: Record<string, TrafficCounts>;
  /** By the visit's keyword, keyed by `rollupKey(keyword)`. */
  kw?: Record<string, TrafficCounts>;
  sales?: { orders: number; revenueCents: number };
  /** Calls whose outcome is known (reports/call-sources.ts): all, answered, by source class and by keyword. */
  calls?: CallSourceCounts;
  /** By online pool type, then local hour `HH`: visitors refused a number (the pool was exhausted, or
   * held back: their address held its limit), and the most numbers held. */
  pools?: Record<string, { refused?: Record<string, number>; heldBack?: Record<string, number>; peak?: Record<string, number> }>;
}

/** A domain's visits and calls per keyword (keyed by `rollupKey`) of one month (reports/keyword-months.ts). */
export interface KeywordMonthDoc {
  _id: string; // `<domainId>|<YYYY-MM>`
  domainId: string;
  month: string;
  visits?: Record<string, number>;
  calls?: Record<string, number>;
}

export interface SmsDoc {
  _id: number;
  domainId: string;
  smsRef: string;
  trackingNumber: string;
  caller: string | null;
  sentAt: Date;
  /** A string for one plain part; an array for unicode or several parts. */
  message: string | string[];
  receivedAt: Date;
  /** From a caller on the domain's blocklist: kept, never listed by the data API. */
  blocked?: boolean;
}

/** A caller a domain refuses (telephony/blocked-callers.ts); `_id` = `<domainId>|<number>`. */
export interface BlockedCallerDoc {
  _id: string;
  domainId: string;
  /** Normalized digits, as callers are stored. */
  number: string;
  addedAt: Date;
  /** The back end's user, `fixture`, or `api`. */
  addedBy: string;
}

/** Claims an outside reference (`call:<callRef>`, `sms:<smsRef>`, `cart:<domain>:<id>`, `order:<domain>:<id>`)
 * for the one record it may create. */
export interface ExternalRefDoc {
  _id: string;
  recordId: number;
}

/** A product line as stored, whichever way it was sent. */
export interface ProductLine {
  externalId: string;
  name: string;
  quantity: number;
  costPerUnit: number;
  /** Kept as sent: a string, an array or an object. */
  details: unknown;
}

export interface CartDoc {
  _id: number;
  domainId: string;
  externalId: string;
  currency: string;
  visitId: number;
  isLoggedIn: boolean;
  callId: number | null;
  agent: string | null;
  products: ProductLine[];
  totalCost: number;
  /** CART_OPEN, or CART_ORDERED once an order names it (agent/shapes.ts). */
  status: number;
  /** The cart's value when an agent first touched it (0 for a cart an agent created): agent statistics. */
  valueBeforeAgent: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Who an order's revenue is credited to, fixed at its first move to a sale status. */
export interface OrderAttribution {
  visitId: number | null;
  callId: number | null;
  source: string | null;
  keyword: string | null;
  agent: string | null;
}

export interface OrderDoc {
  _id: number;
  domainId: string;
  externalId: string;
  variant: 'A' | 'B';
  cartId: number | null;
  externalCartId: string | null;
  visitId: number | null;
  callId: number | null;
  agent: string | null;
  currency: string;
  status: string;
  isSale: boolean;
  products: ProductLine[];
  totalCost: number;
  /** The source label of the order's call or visit, known when it was first stored. */
  source: string | null;
  /** Set at the first move to a sale status, when the order is tied to a visit or a call. */
  convertedAt: Date | null;
  attribution: OrderAttribution | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Claims an order's one conversion: `_id` = the order id, so two racing sale moves count once.
 * Carries the analytics event until it is in the outbox (`queued`), so a crash in between loses nothing. */
export interface ConversionDoc {
  _id: number;
  domainId: string;
  at: Date;
  event: OutboxMessage | null;
  queued: boolean;
}

/** A message as handed to the outbox (webhooks/outbox.ts); a fixed `id` makes its enqueue idempotent. */
export type OutboxMessage = Pick<OutboxDoc, 'accountId' | 'stream' | 'kind' | 'label' | 'url' | 'contentType' | 'body' | 'signed'> & { id?: string };

/** A call an agent is on: from callStart until the call's outcome is reported, or `until`. */
export interface LiveCallDoc {
  _id: number; // callId
  accountId: string;
  visitId: number | null;
  openedAt: Date;
  until: Date;
}

/** One message waiting to go out: a webhook push or an analytics event. Deleted once delivered or given up. */
export interface OutboxDoc {
  _id: string; // the delivery id (webhook-id)
  accountId: string;
  /** Messages of one stream (`call:<id>`, `order:<id>`) go out one at a time, oldest first. */
  stream: string;
  kind: 'webhook' | 'analytics';
  label: string; // `view`, `cart`, `order`, `purchase`
  url: string;
  contentType: string;
  body: string;
  /** Webhooks only: signed with the account's secret at each attempt. */
  signed: boolean;
  createdAt: Date;
  /** Sub-millisecond enqueue time: the order of a stream's messages. */
  enqueuedAt: number;
  attempts: number;
  firstAttemptAt?: Date;
  nextAttemptAt: Date;
  /** The worker attempting it now, until `claimedUntil` (a worker that dies loses its claim then). */
  claimedBy: string | null;
  claimedUntil: Date;
}

/** One delivery attempt, kept for the delivery log. */
export interface DeliveryLogDoc {
  _id: string; // `<messageId>#<attempt>`
  messageId: string;
  accountId: string;
  stream: string;
  kind: OutboxDoc['kind'];
  label: string;
  attempt: number;
  at: Date;
  httpStatus: number | null;
  error: string | null;
  outcome: 'delivered' | 'retrying' | 'abandoned';
  /** What was sent, so a receiver can replay it. */
  body: string;
}

/** Requests of one key in one fixed window (http/rate-limits.ts); removed by a TTL index after it. */
/** The numbers of a domain one client address holds (tracking/address-holds.ts); `_id` = `<domain>|<address>`. */
export interface AddressHoldDoc {
  _id: string;
  /** One per lease claimed from the address: it counts until `until`, the lease's end. */
  holds: { token: string; until: Date }[];
  /** The latest end of its holds: the document goes (TTL) once every hold has ended. */
  expireAt: Date;
}

export interface RateLimitDoc {
  _id: string; // `<limit>|<key>|<window start ms>`
  n: number;
  expireAt: Date;
}

/** The last integer id handed out of a sequence (visit, view, call...): blocks are taken with `$inc`. */
export interface CounterDoc {
  _id: string;
  last: number;
}

export interface Collections {
  accounts: Collection<AccountDoc>;
  users: Collection<UserDoc>;
  sessions: Collection<SessionDoc>;
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
  trafficDays: Collection<TrafficDayDoc>;
  keywordMonths: Collection<KeywordMonthDoc>;
  sms: Collection<SmsDoc>;
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
  addressHolds: Collection<AddressHoldDoc>;
  blockedCallers: Collection<BlockedCallerDoc>;
}

export function collections(db: Db): Collections {
  return {
    accounts: db.collection('accounts'),
    users: db.collection('users'),
    sessions: db.collection('sessions'),
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
    trafficDays: db.collection('traffic_days'),
    keywordMonths: db.collection('keyword_months'),
    sms: db.collection('sms'),
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
    addressHolds: db.collection('address_holds'),
    blockedCallers: db.collection('blocked_callers'),
  };
}

/** Idempotent; run at every start. Every query of a request's path goes through one of these.
 * Key hashes are not unique indexes: a domain may lack a key. */
export async function ensureIndexes(c: Collections): Promise<void> {
  await Promise.all([
    c.domains.createIndex({ apiKeyHash: 1 }),
    c.domains.createIndex({ publicKeyHash: 1 }),
    c.domains.createIndex({ offlineApiKeyHash: 1 }),
    c.domains.createIndex({ dataApiKeyHash: 1 }),
    c.domains.createIndex({ customerKeyHash: 1 }),
    c.offlineAssignments.createIndex({ domainId: 1, destination: 1 }),
    // The data API reads a domain's calls and SMS of a date range, oldest first.
    c.calls.createIndex({ domainId: 1, startedAt: 1, _id: 1 }),
    // callStart finds the call ringing on a number around a time; the data API filters by it.
    c.calls.createIndex({ trackingNumber: 1, startedAt: 1, _id: 1 }),
    // The data API's other filters, each with its own index.
    c.calls.createIndex({ domainId: 1, caller: 1, startedAt: 1, _id: 1 }),
    c.calls.createIndex({ domainId: 1, destination: 1, startedAt: 1, _id: 1 }),
    c.calls.createIndex({ domainId: 1, offlineDescription: 1, startedAt: 1, _id: 1 }),
    c.sms.createIndex({ domainId: 1, sentAt: 1, _id: 1 }),
    // A claim takes the exclusive number of a pool released longest ago (shared slots have a code).
    c.slots.createIndex({ domainId: 1, type: 1, code: 1, freeAt: 1, _id: 1 }),
    // What a visit holds for a phone.
    c.slots.createIndex({ visitId: 1, phone: 1 }),
    // Who held a slot at a call's time.
    c.leases.createIndex({ slot: 1, assignedAt: -1, gen: -1 }),
    // A shared pool's numbers.
    c.trackingNumbers.createIndex({ domainId: 1, usage: 1, type: 1 }),
    c.leases.createIndex({ viewId: 1 }),
    c.leases.createIndex({ visitId: 1 }),
    c.views.createIndex({ visitId: 1 }),
    c.visits.createIndex({ domainId: 1, createdAt: 1 }),
    c.carts.createIndex({ visitId: 1, updatedAt: -1 }),
    c.orders.createIndex({ visitId: 1 }),
    c.orders.createIndex({ callId: 1 }),
    c.liveCalls.createIndex({ visitId: 1 }),
    // The pages shown an overflow number in the minutes before a call to it.
    c.overflowShows.createIndex({ number: 1, at: -1 }),
    c.outbox.createIndex({ enqueuedAt: 1 }),
    c.deliveryLog.createIndex({ accountId: 1, at: -1 }),
    // Rate limit windows end by themselves.
    c.rateLimits.createIndex({ expireAt: 1 }, { expireAfterSeconds: 0 }),
    c.addressHolds.createIndex({ expireAt: 1 }, { expireAfterSeconds: 0 }),
    // Sessions end by themselves.
    c.sessions.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
  ]);
}

/** Sets fields on the document of `_id`, creating it if needed. Two first writes may both try the
 * insert (MongoDB retries such an upsert itself, but not every server does): the loser updates. */
export async function upsertById<T extends { _id: string | number }>(col: Collection<T>, _id: T['_id'], set: Partial<T>, onInsert: Partial<T>): Promise<void> {
  const filter = { _id } as Filter<T>;
  try {
    await col.updateOne(filter, { $set: set, $setOnInsert: onInsert } as UpdateFilter<T>, { upsert: true });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    await col.updateOne(filter, { $set: set } as UpdateFilter<T>);
  }
}

export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}
