// API keys are stored as SHA-256 digests; a request's key is hashed and looked up.
import { createHash } from 'node:crypto';

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
