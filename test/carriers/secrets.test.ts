// SECRETS_KEY and the sealed secrets (issue 42): a key of another size stops the start naming the
// variable; a sealed value opens only with its key and unchanged.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../collector/src/config.ts';
import { SecretBox } from '../../collector/src/carriers/secrets.ts';

describe('SECRETS_KEY', () => {
  it('is 32 random bytes in base64, or the start stops naming it', () => {
    const key = randomBytes(32);
    expect(loadConfig({ SECRETS_KEY: key.toString('base64') }).secretsKey?.equals(key)).toBe(true);
    expect(loadConfig({}).secretsKey).toBeUndefined();
    for (const wrong of [randomBytes(16).toString('base64'), randomBytes(33).toString('base64'), 'not base64 at all!']) {
      expect(() => loadConfig({ SECRETS_KEY: wrong })).toThrow(/SECRETS_KEY: must be 32 random bytes, base64 \(openssl rand -base64 32\)/);
    }
    expect(loadConfig({}).twilioApiBase).toBe('https://api.twilio.com');
    expect(() => loadConfig({ TWILIO_API_BASE: 'ftp://twilio.example' })).toThrow(/TWILIO_API_BASE: must be an http or https URL/);
  });

  it('seals each value with its own nonce; a changed value or another key is refused', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('the auth token');
    expect(sealed).not.toContain('the auth token');
    expect(box.seal('the auth token')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('the auth token');
    const [v, iv, tag, data] = sealed.split(':');
    const flipped = Buffer.from(data!, 'base64');
    flipped[0]! ^= 1;
    expect(() => box.open([v, iv, tag, flipped.toString('base64')].join(':'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });
});
