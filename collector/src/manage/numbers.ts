// The back end's number pools: add a pool, add and remove its numbers. A number a visitor holds,
// or an offline number assigned to a campaign, is not removed under them. Knows nothing of HTTP.
import { searchFor } from '../carriers/carrier-numbers.ts';
import type { TimetableEntry } from '@ringtrail/shared';
import type { DomainDoc, PoolConfig, DomainCollections } from '../domains/documents.ts';
import { addOverflowNumber, addPoolNumber, numberRefusal } from '../domains/pool-numbers.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { withPhoneDisplay } from '../domains/phone-display.ts';
import { countryOf, nationalOf } from '../domains/phone-numbers.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { OfflineCollections } from '../offline/documents.ts';

export interface NumberRow {
  number: string;
  type: number;
  usage: PoolConfig['usage'];
  /** Online: a visitor holds it (or one of its codes) now. Offline: it is assigned to a campaign. */
  inUse: boolean;
  description: string | null;
  /** An assigned offline number's no-answer redirect (the offline numbers API's allow_redirect and timetable). */
  redirect?: { allowRedirect: boolean; timetable: TimetableEntry[] };
  /** Ours, an assigned offline number's: false, its calls are never recorded; true, as the domain says. */
  recording?: boolean;
  /** Ours: a number imported or bought through the account's carrier, and what its last check found
   * (`ok` false: its calls no longer come here; `voiceUrl`: where they go). */
  carrier?: { origin: 'bought' | 'imported'; check: { at: Date; voiceUrl: string | null; ok: boolean } | null };
}

export async function addPool(c: DomainCollections & TrackingCollections, domain: DomainDoc, pool: PoolConfig): Promise<DomainDoc> {
  if (pool.overflowNumber) {
    const refusal = await numberRefusal(c, domain, pool.type, pool.overflowNumber);
    if (refusal) throw new ManageFailure(409, refusal);
  }
  // The filter refuses a second pool of the type even when two requests race.
  const updated = await c.domains.findOneAndUpdate({ _id: domain._id, 'pools.type': { $ne: pool.type } }, { $push: { pools: pool } }, { returnDocument: 'after' });
  if (!updated) throw new ManageFailure(409, `The domain already has a pool of type ${pool.type}`);
  if (pool.overflowNumber) await addOverflowNumber(c, domain._id, pool, pool.overflowNumber);
  return updated;
}

export function poolOf(domain: DomainDoc, type: number): PoolConfig {
  const pool = domain.pools.find((p) => p.type === type);
  if (!pool) throw new ManageFailure(404, `No pool of type ${type}`);
  return pool;
}

/** The domain's pool of the type, made (online, one number per visitor) where there is none yet and
 * the carrier sells the type (issue 81: importing or buying into a pool that does not exist makes it). */
export async function poolOrMade(c: DomainCollections & TrackingCollections, domain: DomainDoc, type: number): Promise<PoolConfig> {
  const known = domain.pools.find((p) => p.type === type);
  if (known || !searchFor({ type }, domain)) return poolOf(domain, type);
  const pool: PoolConfig = { type, usage: 'online', codeDigits: 0 };
  // Two requests at once: the loser finds the winner's.
  const made = await c.domains.findOneAndUpdate({ _id: domain._id, 'pools.type': { $ne: type } }, { $push: { pools: pool } }, { returnDocument: 'after' });
  const pools = made?.pools ?? (await c.domains.findOne({ _id: domain._id }))?.pools ?? [];
  domain.pools = pools;
  return poolOf(domain, type);
}

/** All or nothing: one refused number adds none. */
export async function addNumbers(c: DomainCollections & TrackingCollections, domain: DomainDoc, pool: PoolConfig, numbers: string[]): Promise<void> {
  for (const number of numbers) {
    const refusal = await numberRefusal(c, domain, pool.type, number);
    if (refusal) throw new ManageFailure(409, refusal);
    const stored = await c.trackingNumbers.findOne({ _id: number });
    if (stored && stored.type !== pool.type) throw new ManageFailure(409, `${number} is already in the pool of type ${stored.type}`);
  }
  for (const number of numbers) await addPoolNumber(c, domain._id, pool, number);
}

export async function listNumbers(c: DomainCollections & TrackingCollections & OfflineCollections, domain: DomainDoc, now = new Date()): Promise<NumberRow[]> {
  return (await numbersShown(c, domain, now)).numbers;
}

/** The domain's numbers in the national form of its country, and how to write them (phone-display.ts). */
export async function numbersShown(c: DomainCollections & TrackingCollections & OfflineCollections, domain: DomainDoc, now = new Date()): Promise<{ numbers: NumberRow[]; phoneDisplay?: Record<string, string> }> {
  const [numbers, held, assignments] = await Promise.all([
    c.trackingNumbers.find({ domainId: domain._id }).sort({ type: 1, _id: 1 }).toArray(),
    c.slots.find({ domainId: domain._id, freeAt: { $gt: now } }, { projection: { number: 1 } }).toArray(),
    c.offlineAssignments.find({ domainId: domain._id }, { projection: { description: 1, allowRedirect: 1, timetable: 1, recording: 1 } }).toArray(),
  ]);
  const heldNumbers = new Set(held.map((s) => s.number));
  const assignmentOf = new Map(assignments.map((a) => [a._id, a]));
  const country = countryOf(domain);
  const rows = numbers.map((n) => {
    const assigned = assignmentOf.get(n._id);
    return {
      number: nationalOf(n._id, country),
      type: n.type,
      usage: n.usage,
      inUse: n.usage === 'online' ? heldNumbers.has(n._id) : Boolean(assigned),
      description: assigned?.description ?? null,
      ...(n.carrier ? { carrier: { origin: n.carrier.origin, check: n.carrier.check ?? null } } : {}),
      ...(assigned ? { redirect: { allowRedirect: assigned.allowRedirect, timetable: assigned.timetable }, recording: assigned.recording !== false } : {}),
    };
  });
  return { numbers: rows, ...withPhoneDisplay([...numbers.map((n) => n._id), ...domain.sitePhones, domain.redirectPhone], country) };
}

/**
 * Removes a number from its pool. An exclusive number's slot goes first, and only while nobody holds
 * it: one atomic delete, so a claim racing it either got the number first (and the removal is
 * refused) or finds no slot. A shared number leaves the pool first (no new code is claimed on it),
 * and comes back if a code of it is still held.
 */
export async function removeNumber(c: DomainCollections & TrackingCollections & OfflineCollections, domain: DomainDoc, number: string, now = new Date()): Promise<void> {
  const stored = await c.trackingNumbers.findOne({ _id: number });
  if (!stored || stored.domainId !== domain._id) throw new ManageFailure(404, `No number ${number} in this domain`);
  const inUse = () => new ManageFailure(409, `${number} is in use: it can be removed once it is free`);
  if (stored.usage === 'offline') {
    if (await c.offlineAssignments.findOne({ _id: number })) throw new ManageFailure(409, `${number} is assigned: unassign it first`);
  } else if (stored.codeDigits === 0) {
    const removed = await c.slots.deleteOne({ _id: number, freeAt: { $lte: now } });
    if (removed.deletedCount === 0 && (await c.slots.findOne({ _id: number }))) throw inUse();
  } else {
    await c.trackingNumbers.deleteOne({ _id: number });
    if (await c.slots.findOne({ number, freeAt: { $gt: now } })) {
      await c.trackingNumbers.insertOne(stored);
      throw inUse();
    }
    await c.slots.deleteMany({ number });
    return;
  }
  await c.trackingNumbers.deleteOne({ _id: number });
}
