// Secrets kept at rest (a carrier's auth token or API secret), encrypted with AES-256-GCM under the
// key of SECRETS_KEY (32 random bytes, base64: `openssl rand -base64 32`). Each value has its own
// random 96-bit nonce and its 128-bit tag: a value changed in the database, or read with another
// key, is refused rather than read wrong. Without the key, nothing secret is stored.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** The key of SECRETS_KEY; null when it is not 32 bytes in base64. */
export function secretsKeyOf(base64: string): Buffer | null {
  const key = Buffer.from(base64, 'base64');
  return /^[A-Za-z0-9+/]+={0,2}$/.test(base64) && key.length === 32 ? key : null;
}

export class SecretBox {
  constructor(private readonly key: Buffer) {}

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join(':');
  }

  /** The value sealed; throws when it was changed or sealed under another key. */
  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }
}

/** A JSON secret sealed by `box`, or null when there is no box (SECRETS_KEY unset) or it does not
 * open this one (sealed under another key, or changed). */
export function openedJson<T>(box: SecretBox | null, sealed: string): T | null {
  if (!box) return null;
  try {
    return JSON.parse(box.open(sealed)) as T;
  } catch {
    return null;
  }
}
