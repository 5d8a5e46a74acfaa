// Adding a tracking number to a domain's pool: the fixture and the back end both do it this way.
import { NUMBER_TYPE_PREFIXES } from '@ringtrail/shared';
import type { PoolConfig, DomainCollections } from './documents.ts';
import { countryOf, countryTypeRefusal, DEFAULT_COUNTRY, readingsIn } from './phone-numbers.ts';
import type { TrackingCollections } from '../tracking/documents.ts';

/**
 * Why a number cannot join a pool of `domainId`, or null when it can. The domain that holds it is
 * named only to the operator (`nameOwner`: the seed); a site owner is never told another tenant's domain.
 */
export async function numberRefusal(c: DomainCollections, domain: { _id: string; country?: string }, type: number, number: string, { nameOwner = false } = {}): Promise<string | null> {
  const wrongType = typeRefusal(domain, type, number);
  if (wrongType) return wrongType;
  const stored = await c.trackingNumbers.findOne({ _id: number });
  if (stored && stored.domainId !== domain._id) return nameOwner ? `${number} already belongs to ${stored.domainId}` : `${number} is not available`;
  return null;
}

/** Why a number is not of a pool's type, read without the database: the spec's types by their French
 * prefix, ours (100 to 102) by the number's type in the domain's country; null when it is. */
export function typeRefusal(domain: { country?: string }, type: number, number: string): string | null {
  const prefix = NUMBER_TYPE_PREFIXES[type];
  if (prefix !== undefined && !number.startsWith(prefix)) return `${number} does not start with ${prefix}, the prefix of type ${type}`;
  return countryTypeRefusal(number, type, domain.country ?? DEFAULT_COUNTRY);
}

/** The domain's tracking number that `raw` names, whichever way it is read (the spec's types as the
 * spec reads them, ours in the domain's country); the country's reading when it names none. */
export async function domainNumberNamed(c: DomainCollections, domain: { _id: string; country?: string }, raw: string): Promise<string | null> {
  const readings = readingsIn(raw, countryOf(domain));
  if (readings.length < 2) return readings[0] ?? null;
  const stored = await c.trackingNumbers.findOne({ _id: { $in: readings }, domainId: domain._id }, { projection: { _id: 1 } });
  return stored?._id ?? readings[0]!;
}

/** Idempotent; the runtime state of a number already there (who holds it) is left as it is. */
export async function addPoolNumber(c: DomainCollections & TrackingCollections, domainId: string, pool: PoolConfig, number: string): Promise<void> {
  const { type, usage, codeDigits, costGroup } = pool;
  await c.trackingNumbers.updateOne({ _id: number }, { $set: { domainId, type, usage, codeDigits, ...(costGroup ? { costGroup } : {}) }, $unset: { overflow: '' } }, { upsert: true });
  // An exclusive online number is claimed through its slot; never assigned: free since forever, first in line.
  if (usage === 'online' && codeDigits === 0) {
    await c.slots.updateOne({ _id: number }, { $set: { domainId, type, number, code: null }, $setOnInsert: { gen: 0, freeAt: new Date(0), visitId: 0, phone: null } }, { upsert: true });
  }
}

/** A pool's overflow number: a number of the domain that no visitor claims (it has no slot). */
export async function addOverflowNumber(c: DomainCollections & TrackingCollections, domainId: string, pool: PoolConfig, number: string): Promise<void> {
  await c.trackingNumbers.updateOne({ _id: number }, { $set: { domainId, type: pool.type, usage: 'online', codeDigits: 0, overflow: true } }, { upsert: true });
  await c.slots.deleteOne({ _id: number, freeAt: { $lte: new Date() } });
}
