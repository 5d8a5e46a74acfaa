// `Authorization: Bearer <key>` against one platform-wide key, compared in constant time.
import { timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { hashKey } from '../domains/keys.ts';
import { TelephonyFailure } from './telephony-envelope.ts';

export function bearerAuth(expectedKey: string | undefined): Middleware {
  const expected = expectedKey ? Buffer.from(hashKey(expectedKey), 'hex') : null;
  return async (ctx, next) => {
    if (!expected) throw new TelephonyFailure(403, 'Telephony is not configured: set TELEPHONY_API_KEY');
    const sent = /^Bearer (.+)$/i.exec(ctx.get('authorization'))?.[1]?.trim();
    if (!sent || !timingSafeEqual(Buffer.from(hashKey(sent), 'hex'), expected)) {
      ctx.set('WWW-Authenticate', 'Bearer');
      throw new TelephonyFailure(401, 'Invalid or missing bearer key');
    }
    await next();
  };
}
