// The demo's past: about 60 days of traffic on the demo domain, so a newcomer's first screens
// (overview, sources and keywords, calls, pools, agents) have something to show. Made through the
// services themselves, as requests would (views claim numbers, calls are routed to the visit that
// held the number, carts and orders are attributed), at past times, from a fixed seed: the same
// days give the same traffic. The days end yesterday, so the demo's pool is free today.
import { cartRequest, orderRequest, ospViewRequest, type CallStatus, type ProductInput } from '@ringtrail/shared';
import { AgentService } from '../agent/service.ts';
import { LiveCalls } from '../agent/live-calls.ts';
import { CommerceService } from '../commerce/service.ts';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import { IdAllocator } from '../db/ids.ts';
import { addDays, localTime, startOfLocalDay } from '../domains/time-zone.ts';
import { OfflineNumbers } from '../offline/service.ts';
import { People } from '../people/people.ts';
import { wireCallWritesAndTranscripts } from '../house/writes.ts';
import { demoTranscript, scriptedFor } from './transcripts.ts';
import { CallRouter } from '../telephony/routing.ts';
import { TelephonyService } from '../telephony/service.ts';
import { NumberPool } from '../tracking/pool.ts';
import { TrackingService } from '../tracking/service.ts';
import { TrafficDays } from '../reports/traffic-days.ts';
import { LivePush } from '../agent/live-push.ts';
import { Outbox } from '../webhooks/outbox.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { OfflineCollections } from '../offline/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { DataCollections } from '../data/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { PeopleCollections } from '../people/documents.ts';
import type { IdCollections } from '../db/documents.ts';
import type { CommerceCollections } from '../commerce/documents.ts';
import type { AgentCollections } from '../agent/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { AlertCollections } from '../alerts/documents.ts';
import type { AllCollections } from '../house/all-collections.ts';

export const DEMO_HISTORY_DAYS = 60;
const SEED = 20261123;
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const MOBILE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const AGENTS = ['alice@acme.example', 'bob@acme.example'];
const KEYWORDS = ['emergency plumber', 'plumber near me', 'boiler repair', 'leaking pipe', 'water heater installation', 'blocked drain'];
const PAGES = ['/', '/services', '/boilers', '/emergency', '/contact', '/prices'];

/** mulberry32: a small seeded generator, so the demo is the same on every machine. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Visitor = { url: string; referrer: string };

const TYPED: Visitor = { url: 'https://acme.example/', referrer: '' };

/** The demo's ad campaigns, each with the page its ads land on. */
const AD_CAMPAIGNS = [
  { name: 'emergency-plumbing', page: 'emergency' },
  { name: 'boiler-service-winter', page: 'boilers' },
  { name: 'brand', page: '' },
];

/** Where visitors come from, and how often: searches, ads, social, a directory, typed addresses. */
const ARRIVALS: [number, (kw: string, n: number) => Visitor][] = [
  [0.34, (kw) => ({ url: 'https://acme.example/', referrer: `https://www.google.com/search?q=${encodeURIComponent(kw)}` })],
  [0.22, (kw, n) => ({ url: `https://acme.example/${AD_CAMPAIGNS[n % AD_CAMPAIGNS.length]!.page}?utm_source=google&utm_medium=cpc&utm_campaign=${AD_CAMPAIGNS[n % AD_CAMPAIGNS.length]!.name}&utm_term=${encodeURIComponent(kw)}&gclid=demo-${n}`, referrer: 'https://www.google.com/' })],
  [0.06, (kw) => ({ url: 'https://acme.example/', referrer: `https://www.bing.com/search?q=${encodeURIComponent(kw)}` })],
  [0.1, () => ({ url: 'https://acme.example/services', referrer: 'https://m.facebook.com/' })],
  [0.08, () => ({ url: 'https://acme.example/prices', referrer: 'https://www.pagesjaunes.fr/annuaire/plombier' })],
  [0.2, () => TYPED],
];

/** Outcomes of calls, as they go for a small business. */
const OUTCOMES: [number, CallStatus][] = [
  [0.72, 'SUCCESS'],
  [0.14, 'NORESPONSE'],
  [0.07, 'BUSY'],
  [0.05, 'INTERRUPTED'],
  [0.02, 'ANOMALY'],
];

function pick<T>(rand: () => number, weighted: [number, T][]): T {
  let r = rand();
  for (const [weight, value] of weighted) if ((r -= weight) < 0) return value;
  return weighted.at(-1)![1];
}

export interface HistorySummary {
  visits: number;
  calls: number;
  orders: number;
}

/** Generates `days` days of traffic ending yesterday (the domain's days), unless the domain has visits already. */
export async function generateDemoHistory(c: AllCollections, domainName: string, { days = DEMO_HISTORY_DAYS, today }: { days?: number; today?: string } = {}): Promise<HistorySummary | null> {
  const domain = await c.domains.findOne({ _id: domainName });
  const account = domain && (await c.accounts.findOne({ _id: domain.accountId }));
  if (!domain || !account || (await c.visits.countDocuments({ domainId: domain._id }, { limit: 1 })) > 0) return null;
  const ids = new IdAllocator(c.counters);
  const outbox = new Outbox(c);
  const liveCalls = new LiveCalls(c);
  const tracking = new TrackingService(c, ids, undefined, new TrafficDays(c));
  // Calls joined to their callers' people as the collector's own are, so the overview's people who
  // became leads are there too.
  const { writes: callWrites, transcripts } = wireCallWritesAndTranscripts(c);
  const telephony = new TelephonyService(c, ids, new CallRouter(c, new NumberPool(c)), undefined, callWrites, new People(c, ids, callWrites));
  const commerce = new CommerceService(c, ids, new LivePush(c, outbox, liveCalls), outbox, 'https://www.google-analytics.com/mp/collect');
  const agents = new AgentService(c, liveCalls);
  const rand = seeded(SEED);
  const summary: HistorySummary = { visits: 0, calls: 0, orders: 0 };
  const radio = await new OfflineNumbers(c).run(domain, { action: 'assign', tracking_number: '0100000001', phone_number: domain.sitePhones[0]!, description: 'Radio spot', type: 6 }).catch(() => null);
  const lastDay = addDays(today ?? localTime(new Date(), domain.timeZone).day, -1);
  const visitors: string[] = [];

  for (let d = days - 1; d >= 0; d--) {
    const day = addDays(lastDay, -d);
    const start = startOfLocalDay(day, domain.timeZone).getTime();
    const weekend = [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
    const count = Math.round((weekend ? 14 : 26) + 6 * Math.sin(d / 5) + rand() * 8);
    // Opening hours, 8:00 to 21:00, in the domain's time zone.
    const times = Array.from({ length: count }, () => start + (8 + rand() * 13) * 3600_000).sort((a, b) => a - b);
    for (const at of times) {
      const n = summary.visits++;
      // A quarter of the visits are of earlier visitors, most typing the address: their first touch differs.
      const returning = visitors.length > 0 && rand() < 0.25;
      const visitor = returning ? visitors[Math.floor(rand() * visitors.length)]! : `demo-visitor-${n}`;
      if (!returning) visitors.push(visitor);
      const arrival = returning && rand() < 0.7 ? TYPED : pick(rand, ARRIVALS)(KEYWORDS[Math.floor(rand() * KEYWORDS.length)]!, n);
      const visit = await view(tracking, domain, 0, arrival, rand() < 0.35, n, new Date(at), visitor);
      const pages = 1 + Math.floor(rand() * 3);
      for (let p = 1; p < pages; p++) await view(tracking, domain, visit.visitId, { url: `https://acme.example${PAGES[Math.floor(rand() * PAGES.length)]}`, referrer: arrival.url }, false, n, new Date(at + p * 60_000));
      const number = visit.number;
      if (!number || rand() > 0.11) continue;
      const callAt = new Date(Math.floor((at + (3 + rand() * 12) * 60_000) / 1000) * 1000);
      const callId = await call(telephony, `demo-${n}`, number, callAt, pick(rand, OUTCOMES), rand);
      summary.calls++;
      const answered = (await c.calls.findOne({ _id: callId }, { projection: { status: 1 } }))?.status === 'SUCCESS';
      if (!answered) continue;
      const script = scriptedFor(n);
      if (script) await demoTranscript(transcripts, domain, { _id: callId, startedAt: callAt }, script);
      await agents.setAgentToCall(account, callId, AGENTS[Math.floor(rand() * AGENTS.length)]!);
      if (rand() < 0.35) {
        await sale(commerce, domain, `demo-${n}`, visit.visitId, callId, rand, new Date(callAt.getTime() + 10 * 60_000));
        summary.orders++;
      }
    }
    // The radio spot's listeners, a call or two a day: no visit, its own source.
    if (radio && rand() < 0.6) {
      await call(telephony, `demo-radio-${day}`, '0100000001', new Date(start + (9 + rand() * 9) * 3600_000), pick(rand, OUTCOMES), rand);
      summary.calls++;
    }
  }
  return summary;
}

async function view(tracking: TrackingService, domain: DomainDoc, visitId: number, visitor: Visitor, mobile: boolean, n: number, at: Date, visitorId?: string): Promise<{ visitId: number; number: string | null }> {
  const req = ospViewRequest.parse({
    api_key: '',
    visit_id: String(visitId),
    ip: `198.51.100.${n % 250}`,
    url: visitor.url,
    page_title: 'Acme Plumbing',
    is_mobile: String(mobile),
    referer_url: visitor.referrer,
    nr_phones: '1',
    direct_display: 'true',
    phones: domain.sitePhones[0],
    user_agent: mobile ? MOBILE : DESKTOP,
    unique_visitor_id: visitorId,
  });
  const answer = await tracking.view(domain, req, at);
  const shown = 'surtaxPhones' in answer ? Object.values(answer.surtaxPhones ?? {})[0] : undefined;
  return { visitId: answer.visitId, number: shown?.surtaxPhoneNumber?.replaceAll('.', '') ?? null };
}

async function call(telephony: TelephonyService, callRef: string, trackingNumber: string, startDate: Date, status: CallStatus, rand: () => number): Promise<number> {
  const answered = status === 'SUCCESS';
  // A fifth of the answered calls are short (no lead by the default rule of 30 s).
  const duration = answered ? (rand() < 0.2 ? Math.round(5 + rand() * 20) : Math.round(40 + rand() * 400)) : 0;
  // A quarter of the callers are 40 regulars who call again (repeat callers), the others new.
  const callerPhone = rand() < 0.25 ? `0611${String(Math.floor(rand() * 40)).padStart(6, '0')}` : `06${String(Math.floor(rand() * 1e8)).padStart(8, '0')}`;
  return telephony.recordCall(
    { callRef, trackingNumber, callerPhone, startDate, status, duration, billingDuration: Math.ceil(duration / 60) * 60, answerTime: answered ? Math.round(3 + rand() * 15) : 0, triggerType: 1, isRedirect: false, revenue: 0 },
    new Date(startDate.getTime() + (duration + 20) * 1000),
  );
}

async function sale(commerce: CommerceService, domain: DomainDoc, id: string, visitId: number, callId: number, rand: () => number, at: Date): Promise<void> {
  const products: ProductInput[] = [{ externalId: 'SVC-1', name: rand() < 0.5 ? 'Boiler service' : 'Leak repair', quantity: 1, costPerUnit: Math.round(90 + rand() * 300), details: null }];
  const cart = cartRequest.parse({ id: `cart-${id}`, currency: 'EUR', visit_id: String(visitId), is_logged_in: '1', call_id: String(callId) });
  await commerce.saveCart(domain, cart, products, at);
  const order = orderRequest.parse({ id: `order-${id}`, status: 'paid', cart_id: `cart-${id}`, currency: 'EUR', visit_id: String(visitId), call_id: String(callId) });
  await commerce.saveOrder(domain, 'A', order, products, new Date(at.getTime() + 5 * 60_000));
}
