// Finds the domain a request's key belongs to.
import type { Collections, DomainDoc, PoolConfig } from '../db/collections.ts';
import { hashKey } from './keys.ts';

export async function domainByApiKey(c: Collections, apiKey: unknown): Promise<DomainDoc | null> {
  if (typeof apiKey !== 'string' || apiKey === '') return null;
  return c.domains.findOne({ apiKeyHash: hashKey(apiKey) });
}

export function onlinePools(domain: DomainDoc): PoolConfig[] {
  return domain.pools.filter((p) => p.usage === 'online');
}
