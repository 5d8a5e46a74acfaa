// Small rules shared by /ospView, /ospClick and /ospExpiration.
import type { SurtaxPhone } from '@ringtrail/shared';
import { answeredNumber } from '../domains/phone-display.ts';
import type { DomainDoc, PoolConfig } from '../domains/documents.ts';
import type { LeaseDoc } from './documents.ts';
import { TrackingFailure } from '../http/tracking-failure.ts';
import { canonicalIn, countryOf, nationalOf } from '../domains/phone-numbers.ts';

/** `expiration`: -1 (or absent) the domain default, 0 now, positive that many seconds from now. */
export function expiryFor(expiration: number | undefined, domain: DomainDoc, now: Date): Date {
  const seconds = expiration === undefined || expiration === -1 ? domain.defaultExpiration : expiration;
  return new Date(now.getTime() + seconds * 1000);
}

/** The pool of a type; with no type, the domain's first online pool. */
export function poolFor(domain: DomainDoc, type: number | undefined): PoolConfig {
  const pools = domain.pools.filter((p) => p.usage === 'online');
  const pool = type === undefined ? pools[0] : pools.find((p) => p.type === type);
  if (pool) return pool;
  if (type === undefined) throw new TrackingFailure('WARNING', 'No tracking number available: the domain has no online pool');
  const active = pools.map((p) => p.type).join(', ') || 'none';
  throw new TrackingFailure('INVALID_PARAMETER', `Invalid parameter type: ${type} is not active for this domain (active: ${active})`);
}

/** The number as the spec answers it: dotted for a French domain, in its own national format for
 * another country's (domains/phone-display.ts). */
export function surtaxPhoneOf(lease: Pick<LeaseDoc, 'number' | 'code'>, domain: DomainDoc): SurtaxPhone {
  return { surtaxPhoneNumber: answeredNumber(lease.number, countryOf(domain)), surtaxPhoneCode: lease.code };
}

/** A phone a request names, read in the domain's country (a French domain's as the schema read it). */
export function inCountry<T extends { original: string; digits: string }>(phone: T, domain: DomainDoc): T {
  return { ...phone, digits: canonicalIn(phone.original, countryOf(domain)) ?? phone.digits };
}

/** The `client_data` entry of one phone, looked up as sent or by its digits. */
export function clientDataEntry(clientData: unknown, phone: { original: string; digits: string }): unknown {
  if (typeof clientData !== 'object' || clientData === null) return null;
  const byPhone = clientData as Record<string, unknown>;
  return byPhone[phone.original] ?? byPhone[phone.digits] ?? null;
}
