// The number pools report: per online pool, the numbers held now and at the range's peak, the hours
// it ran out, and the size it should have; per offline number, its campaign and its calls.
import type { DomainDoc, PoolConfig, DomainCollections } from '../domains/documents.ts';
import { CallDays, rollupKey } from '../data/call-days.ts';
import { TrafficDays } from './traffic-days.ts';
import { withPhoneDisplay } from '../domains/phone-display.ts';
import { countryOf, nationalOf } from '../domains/phone-numbers.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { OfflineCollections } from '../offline/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { DataCollections } from '../data/documents.ts';
import type { ReportCollections } from './documents.ts';

/** Head room over the measured demand, so an ordinary day's spike finds a number. */
const HEAD_ROOM = 1.2;

export interface OnlinePoolReport {
  type: number;
  shared: boolean;
  numbers: number;
  /** Visitors the pool can serve at once: its numbers, times the codes of a shared pool. */
  capacity: number;
  heldNow: number;
  peakHeld: number;
  /** Local hours in which visitors were refused a number, with how many. */
  exhaustedHours: { day: string; hour: string; refused: number }[];
  /** Visitors refused a number because their address already held numbersPerAddress of them (ours). */
  heldBackFromOneAddress: number;
  recommendedSize: number;
}

export interface OfflineNumberReport {
  number: string;
  type: number;
  description: string | null;
  destination: string | null;
  calls: number;
}

/**
 * The numbers a pool needs: by Little's law, the visitors refused in the worst hour would each have
 * held a number for the domain's default expiration, so they add `refused × expiration / 3600`
 * holders to the measured peak; then 20 % head room, rounded up, and never less than one.
 * A shared pool needs that many codes: the size is in numbers, codes divided over them.
 */
export function recommendedSize(peakHeld: number, worstHourRefused: number, expirationSeconds: number, codesPerNumber: number): number {
  const demand = peakHeld + (worstHourRefused * expirationSeconds) / 3600;
  return Math.max(1, Math.ceil((demand * HEAD_ROOM) / codesPerNumber));
}

/** Numbers of a pool held by a visitor at `now`. */
export async function heldNow(c: TrackingCollections, domainId: string, type: number, now: Date): Promise<number> {
  return c.slots.countDocuments({ domainId, type, freeAt: { $gt: now } });
}

export async function poolsReport(c: ReportCollections & DomainCollections & TrackingCollections & OfflineCollections & TelephonyCollections & DataCollections, domain: DomainDoc, from: string, to: string, now = new Date()): Promise<{ online: OnlinePoolReport[]; offline: OfflineNumberReport[]; phoneDisplay?: Record<string, string> }> {
  const traffic = new TrafficDays(c);
  const online = domain.pools.filter((p) => p.usage === 'online');
  // What is held now is a sample of the hour's peak too: the report is never behind what it shows.
  const held = await Promise.all(online.map((p) => heldNow(c, domain._id, p.type, now)));
  await Promise.all(online.map((p, i) => traffic.poolHeld(domain, p.type, held[i]!, now)));
  const days = await traffic.read(domain._id, from, to, { pools: 1 });
  const reports = await Promise.all(online.map((pool, i) => onlinePoolReport(c, domain, pool, held[i]!, days)));
  const offline = await offlineNumbers(c, domain, from, to);
  // In the national form of the domain's country, with how to write them (phone-display.ts).
  const country = countryOf(domain);
  return {
    online: reports,
    offline: offline.map((n) => ({ ...n, number: nationalOf(n.number, country), destination: n.destination && nationalOf(n.destination, country) })),
    ...withPhoneDisplay(offline.flatMap((n) => [n.number, n.destination]), country),
  };
}

async function onlinePoolReport(c: DomainCollections, domain: DomainDoc, pool: PoolConfig, heldNow: number, days: Awaited<ReturnType<TrafficDays['read']>>): Promise<OnlinePoolReport> {
  const numbers = await c.trackingNumbers.countDocuments({ domainId: domain._id, usage: 'online', type: pool.type });
  const codes = pool.codeDigits > 0 ? 10 ** pool.codeDigits : 1;
  let peakHeld = 0;
  let heldBackFromOneAddress = 0;
  const exhaustedHours: OnlinePoolReport['exhaustedHours'] = [];
  for (const day of days) {
    const stats = day.pools?.[pool.type];
    for (const peak of Object.values(stats?.peak ?? {})) peakHeld = Math.max(peakHeld, peak);
    for (const heldBack of Object.values(stats?.heldBack ?? {})) heldBackFromOneAddress += heldBack;
    for (const [hour, refused] of Object.entries(stats?.refused ?? {}).sort()) exhaustedHours.push({ day: day.day, hour, refused });
  }
  const worst = Math.max(0, ...exhaustedHours.map((h) => h.refused));
  return {
    type: pool.type,
    shared: pool.codeDigits > 0,
    numbers,
    capacity: numbers * codes,
    heldNow,
    peakHeld,
    exhaustedHours,
    heldBackFromOneAddress,
    recommendedSize: recommendedSize(peakHeld, worst, domain.defaultExpiration, codes),
  };
}

async function offlineNumbers(c: DomainCollections & OfflineCollections & TelephonyCollections & DataCollections, domain: DomainDoc, from: string, to: string): Promise<OfflineNumberReport[]> {
  const [numbers, assignments, days] = await Promise.all([
    c.trackingNumbers.find({ domainId: domain._id, usage: 'offline' }).sort({ _id: 1 }).toArray(),
    c.offlineAssignments.find({ domainId: domain._id }).toArray(),
    new CallDays(c).readDays(domain._id, from, to, ['by.trackingNumber']),
  ]);
  const assignmentOf = new Map(assignments.map((a) => [a._id, a]));
  return numbers.map((n) => ({
    number: n._id,
    type: n.type,
    description: assignmentOf.get(n._id)?.description ?? null,
    destination: assignmentOf.get(n._id)?.destination ?? null,
    calls: days.reduce((sum, day) => sum + Object.values(day.by?.trackingNumber?.[rollupKey(n._id)] ?? {}).reduce((calls, t) => calls + (t?.calls ?? 0), 0), 0),
  }));
}
