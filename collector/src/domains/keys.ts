// API keys are stored as SHA-256 digests; a request's key is hashed and looked up.
import { createHash, randomBytes } from 'node:crypto';

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The keys of a domain the back end makes, by the name it shows, and the field of their digest. */
export const DOMAIN_KEY_FIELDS = {
  api: 'apiKeyHash',
  data: 'dataApiKeyHash',
  offline: 'offlineApiKeyHash',
  customer: 'customerKeyHash',
  public: 'publicKeyHash',
} as const;
export type DomainKeyKind = keyof typeof DOMAIN_KEY_FIELDS;

/** A new key: 32 random bytes, with a prefix that tells a reader which key it is (`rt_data_...`). */
export function newKey(kind: DomainKeyKind | 'call_center'): string {
  return `rt_${kind}_${randomBytes(32).toString('base64url')}`;
}
