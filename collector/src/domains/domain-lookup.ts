// Finds the domain a request's key belongs to.
import type { Collections } from '../db/collections.ts';
import type { DomainDoc, PoolConfig } from './documents.ts';
import { hashKey } from './keys.ts';

/** The domain whose key of this kind (`apiKeyHash`, `publicKeyHash`...) is `key`; null for a missing or empty key. */
export async function domainByKey(c: Collections, kind: 'apiKeyHash' | 'publicKeyHash' | 'offlineApiKeyHash' | 'dataApiKeyHash' | 'customerKeyHash', key: unknown): Promise<DomainDoc | null> {
  if (typeof key !== 'string' || key === '') return null;
  return c.domains.findOne({ [kind]: hashKey(key) });
}

export function onlinePools(domain: DomainDoc): PoolConfig[] {
  return domain.pools.filter((p) => p.usage === 'online');
}
