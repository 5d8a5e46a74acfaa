// The domain of a request's key without a database read per request: /ospView and the browser
// doors, the busiest requests, find their domain here. Each process keeps a domain it looked up for
// at most `maxAgeMs` (5 s by default, DOMAIN_CACHE_MS) counted from the start of the read, so a key
// revoked or a setting changed in another process takes effect here within that bound. A change
// made through this process's back end clears the cache at once (manage/routes.ts).
import type { DomainDoc, DomainCollections } from './documents.ts';
import { hashKey } from './keys.ts';
import { setRecent } from '../recent-map.ts';

export const DEFAULT_DOMAIN_CACHE_MS = 5_000;

/** Keys remembered at most, unknown ones included: random keys cannot grow the map without end. */
const MAX_ENTRIES = 10_000;

export type DomainKeyField = 'apiKeyHash' | 'publicKeyHash' | 'offlineApiKeyHash' | 'dataApiKeyHash' | 'customerKeyHash';

export class DomainCache {
  private readonly entries = new Map<string, { domain: Promise<DomainDoc | null>; until: number }>();

  constructor(
    private readonly c: DomainCollections,
    /** 0: no cache, a read per request. */
    private readonly maxAgeMs = DEFAULT_DOMAIN_CACHE_MS,
  ) {}

  /** The domain whose key of this kind is `key`; null for a missing, empty or unknown key. */
  byKey(field: DomainKeyField, key: unknown): Promise<DomainDoc | null> {
    if (typeof key !== 'string' || key === '') return Promise.resolve(null);
    const hash = hashKey(key);
    if (this.maxAgeMs <= 0) return this.c.domains.findOne({ [field]: hash });
    const id = `${field}|${hash}`;
    const now = Date.now();
    const hit = this.entries.get(id);
    if (hit && hit.until > now) return hit.domain;
    // Concurrent requests of one key share the read; a failed read is not kept.
    const domain = this.c.domains.findOne({ [field]: hash });
    setRecent(this.entries, id, { domain, until: now + this.maxAgeMs }, MAX_ENTRIES);
    domain.catch(() => this.entries.get(id)?.domain === domain && this.entries.delete(id));
    return domain;
  }

  /** Forgets every domain: one was changed through this process. */
  clear(): void {
    this.entries.clear();
  }
}
