// `Authorization: Bearer <key>` against one platform-wide key, compared in constant time.
import { timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { hashKey } from '../domains/keys.ts';
import { TelephonyFailure } from './telephony-envelope.ts';

/** Whether an `Authorization` header carries this key (digests compared in constant time). */
export function bearerMatches(expectedKey: string, authorization: string): boolean {
  const sent = /^Bearer (.+)$/i.exec(authorization)?.[1]?.trim();
  return Boolean(sent) && timingSafeEqual(Buffer.from(hashKey(sent!), 'hex'), Buffer.from(hashKey(expectedKey), 'hex'));
}

export function bearerAuth(expectedKey: string | undefined): Middleware {
  return async (ctx, next) => {
    if (!expectedKey) throw new TelephonyFailure(403, 'Telephony is not configured: set TELEPHONY_API_KEY');
    if (!bearerMatches(expectedKey, ctx.get('authorization'))) {
      ctx.set('WWW-Authenticate', 'Bearer');
      throw new TelephonyFailure(401, 'Invalid or missing bearer key');
    }
    await next();
  };
}
